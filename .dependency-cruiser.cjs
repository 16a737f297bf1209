/**
 * The import layers (docs/architecture.md): `npm run lint` fails on any of these.
 *   core    pure logic: imports only core (and pure npm libraries; its own tsconfig has no Node)
 *   state   the local machine (files, git, the headless terminal): core and state
 *   client  talking to runners: core, state, client
 *   runner  the runner process: core, state, runner
 *   ui      the board's Ink components: core, state, client, ui
 *   demo    the built-in demo: anything below cli
 *   cli     commander; parsing and printing: anything, but never another command
 * Inside src/runner, each folder imports only the folders below it (docs/architecture.md, "The runner's folders"):
 *   log.ts, node-internals.ts  nothing of the runner
 *   pty/ model/ clients/ activity/ wakes/  themselves (and the two above)
 *   direct/   clients/, pty/        stream/   clients/, model/, pty/        control/  clients/
 *   session/  anything of the runner but main.ts and entry.ts, which nothing imports (entry.ts imports main.ts)
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import cycle: split the shared part out.', from: {}, to: { circular: true } },
    { name: 'core-is-pure', severity: 'error', comment: 'src/core imports nothing of ours outside src/core.', from: { path: '^src/core/' }, to: { path: '^src/(?!core/)' } },
    { name: 'core-no-node', severity: 'error', comment: 'src/core uses no Node module.', from: { path: '^src/core/' }, to: { dependencyTypes: ['core'] } },
    { name: 'state-is-low', severity: 'error', comment: 'src/state never imports runner, client, ui, cli or demo.', from: { path: '^src/state/' }, to: { path: '^src/(runner|client|ui|cli|demo)/' } },
    { name: 'client-not-ui-or-runner', severity: 'error', comment: 'src/client never imports ui, runner, cli or demo.', from: { path: '^src/client/' }, to: { path: '^src/(runner|ui|cli|demo)/' } },
    { name: 'runner-alone', severity: 'error', comment: 'The runner process needs no client, ui, cli or demo code.', from: { path: '^src/runner/' }, to: { path: '^src/(client|ui|cli|demo)/' } },
    { name: 'runner-nothing-imports-main', severity: 'error', comment: "The runner's main.ts and entry.ts are its top: nothing of the runner imports them (entry.ts starts main.ts).", from: { path: '^src/runner/', pathNot: '^src/runner/entry\\.ts$' }, to: { path: '^src/runner/(main|entry)\\.ts$' } },
    { name: 'runner-shared-is-low', severity: 'error', comment: 'The runner log and node-internals.ts import nothing of the runner.', from: { path: '^src/runner/(log|node-internals)\\.ts$' }, to: { path: '^src/runner/' } },
    { name: 'runner-pty-alone', severity: 'error', comment: 'src/runner/pty/ (the program in its PTY) knows no client, model or session.', from: { path: '^src/runner/pty/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(pty/|log\\.ts|node-internals\\.ts)' } },
    { name: 'runner-model-alone', severity: 'error', comment: 'src/runner/model/ (the headless terminal and its frames) knows no client, control, PTY or session.', from: { path: '^src/runner/model/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(model/|log\\.ts)' } },
    { name: 'runner-clients-alone', severity: 'error', comment: 'src/runner/clients/ (connections, their state, the socket) knows no PTY, model, control or session.', from: { path: '^src/runner/clients/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(clients/|log\\.ts|node-internals\\.ts)' } },
    { name: 'runner-activity-alone', severity: 'error', comment: 'src/runner/activity/ (busy, idle, waiting) is told what it reads; it imports nothing else of the runner.', from: { path: '^src/runner/activity/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(activity/|log\\.ts)' } },
    { name: 'runner-wakes-alone', severity: 'error', comment: "src/runner/wakes/ (a room's wakes) is handed the session's parts it needs by main.ts.", from: { path: '^src/runner/wakes/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(wakes/|log\\.ts)' } },
    { name: 'runner-direct-below-session', severity: 'error', comment: 'src/runner/direct/ (direct output and input, the echo relay) stands on clients/ and pty/ only.', from: { path: '^src/runner/direct/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(direct/|clients/|pty/|log\\.ts|node-internals\\.ts)' } },
    { name: 'runner-stream-below-session', severity: 'error', comment: 'src/runner/stream/ (output to the clients, snapshots) stands on clients/, model/ and pty/ only.', from: { path: '^src/runner/stream/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(stream/|clients/|model/|pty/|log\\.ts)' } },
    { name: 'runner-control-below-session', severity: 'error', comment: 'src/runner/control/ (the message table, its gate, the envelope) stands on clients/ only: what a handler does to the session is asked through SessionOps.', from: { path: '^src/runner/control/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(control/|clients/|log\\.ts)' } },
    { name: 'ui-not-runner-or-cli', severity: 'error', comment: 'The board talks to runners through src/client.', from: { path: '^src/ui/' }, to: { path: '^src/(runner|cli)/' } },
    { name: 'demo-not-cli', severity: 'error', comment: 'The demo is started by a command; it imports none.', from: { path: '^src/demo/' }, to: { path: '^src/cli/' } },
    { name: 'no-command-imports-another', severity: 'error', comment: 'Shared command code goes in src/client or src/cli (not commands/).', from: { path: '^src/cli/commands/([^/]+)\\.tsx?$' }, to: { path: '^src/cli/commands/', pathNot: '^src/cli/commands/$1\\.tsx?$' } },
    { name: 'no-orphans', severity: 'error', comment: 'A file nothing imports is dead.', from: { orphan: true, pathNot: ['\\.d\\.ts$', '^src/runner/main\\.ts$', '^src/cli/main\\.ts$'] }, to: {} },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
