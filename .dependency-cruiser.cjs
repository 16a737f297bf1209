/**
 * The import layers (docs/architecture.md): `npm run lint` fails on any of these.
 *   core    pure logic: imports only core (and pure npm libraries; its own tsconfig has no Node)
 *   state   the local machine (files, git, the headless terminal): core and state
 *   client  talking to runners: core, state, client
 *   runner  the runner process: core, state, runner
 *   ui      the board's Ink components: core, state, client, ui
 *   demo    the built-in demo: anything below cli
 *   web     the board in a browser: web/server (core, state, client, web) and web/page (core and itself only)
 *   cli     commander; parsing and printing: anything, but never another command
 * Inside src/runner, each folder imports only the folders below it (docs/architecture.md, "The runner's folders"):
 *   log.ts, node-internals.ts  nothing of the runner
 *   pty/ model/ clients/ activity/ wakes/ usage/  themselves (and the two above)
 *   direct/   clients/, pty/        stream/   clients/, model/, pty/        control/  clients/
 *   session/  anything of the runner but main.ts and entry.ts, which nothing imports (entry.ts imports main.ts)
 */
/**
 * Node's built-in modules are kept in the graph (includeOnly) so the rules about them can see them:
 * without them a rule on `dependencyTypes: ['core']` never matches anything.
 */
const NODE_BUILTINS = `^(${require('node:module').builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`;

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
    { name: 'runner-usage-alone', severity: 'error', comment: "src/runner/usage/ (the session's usage kept fresh) is handed the session's parts it needs by main.ts.", from: { path: '^src/runner/usage/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(usage/|log\\.ts)' } },
    { name: 'runner-direct-below-session', severity: 'error', comment: 'src/runner/direct/ (direct output and input, the echo relay) stands on clients/ and pty/ only.', from: { path: '^src/runner/direct/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(direct/|clients/|pty/|log\\.ts|node-internals\\.ts)' } },
    { name: 'runner-stream-below-session', severity: 'error', comment: 'src/runner/stream/ (output to the clients, snapshots) stands on clients/, model/ and pty/ only.', from: { path: '^src/runner/stream/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(stream/|clients/|model/|pty/|log\\.ts)' } },
    { name: 'runner-control-below-session', severity: 'error', comment: 'src/runner/control/ (the message table, its gate, the envelope) stands on clients/ only: what a handler does to the session is asked through SessionOps.', from: { path: '^src/runner/control/' }, to: { path: '^src/runner/', pathNot: '^src/runner/(control/|clients/|log\\.ts)' } },
    { name: 'client-in-folders', severity: 'error', comment: 'Every file of src/client sits in the folder of its job (docs/architecture.md, "The code").', from: { path: '^src/client/[^/]+$' }, to: {} },
    { name: 'client-link', severity: 'error', comment: 'src/client/link/ (one connection to a runner, the one reconnect loop) is the bottom of the client: it imports no other client folder.', from: { path: '^src/client/link/' }, to: { path: '^src/client/', pathNot: '^src/client/(link)/' } },
    { name: 'client-screen', severity: 'error', comment: 'src/client/screen/ (a snapshot as text) stands on link/ only.', from: { path: '^src/client/screen/' }, to: { path: '^src/client/', pathNot: '^src/client/(screen|link)/' } },
    { name: 'client-chat', severity: 'error', comment: 'src/client/chat/ (a session in a room, the MCP tools) imports no other client folder.', from: { path: '^src/client/chat/' }, to: { path: '^src/client/', pathNot: '^src/client/(chat)/' } },
    { name: 'client-send', severity: 'error', comment: 'src/client/send/ (enveloped commands, send) stands on link/ and session/.', from: { path: '^src/client/send/' }, to: { path: '^src/client/', pathNot: '^src/client/(send|link|session)/' } },
    { name: 'client-session', severity: 'error', comment: 'src/client/session/ (find, start, end, revive a session) stands on link/, and on remote/ (a host\'s name) and worktree/ (a new session\'s worktree) for new-session.ts.', from: { path: '^src/client/session/' }, to: { path: '^src/client/', pathNot: '^src/client/(session|link|remote|worktree)/' } },
    { name: 'client-worktree', severity: 'error', comment: 'src/client/worktree/ (the worktree commands, the counts) stands on session/ only.', from: { path: '^src/client/worktree/' }, to: { path: '^src/client/', pathNot: '^src/client/(worktree|session)/' } },
    { name: 'client-remote', severity: 'error', comment: 'src/client/remote/ (--host, the board over several machines) stands on link/, session/ and feed/.', from: { path: '^src/client/remote/' }, to: { path: '^src/client/', pathNot: '^src/client/(remote|feed|link|session)/' } },
    { name: 'client-feed', severity: 'error', comment: 'src/client/feed/ (the board\'s live data) stands on link/, send/, session/ and worktree/; never remote/ (remote-feed.ts wraps it).', from: { path: '^src/client/feed/' }, to: { path: '^src/client/', pathNot: '^src/client/(feed|link|send|session|worktree)/' } },
    { name: 'client-doctor', severity: 'error', comment: 'src/client/doctor/ (doctor\'s checks) stands on session/ only.', from: { path: '^src/client/doctor/' }, to: { path: '^src/client/', pathNot: '^src/client/(doctor|session)/' } },
    { name: 'client-attach', severity: 'error', comment: 'src/client/attach/ (the full screen) stands on link/, remote/, send/ and session/.', from: { path: '^src/client/attach/' }, to: { path: '^src/client/', pathNot: '^src/client/(attach|link|remote|send|session)/' } },
    { name: 'client-notify', severity: 'error', comment: "src/client/notify/ (what a notification says: a waiting session's question read off its screen) stands on link/, feed/ (the feed, the preview mirror) and remote/ (a remote row's screen).", from: { path: '^src/client/notify/' }, to: { path: '^src/client/', pathNot: '^src/client/(notify|link|feed|remote)/' } },
    { name: 'client-board-actions-top', severity: 'error', comment: 'src/client/board-actions/ (what the board does through runners) is the top of the client: nothing in src/client imports it.', from: { path: '^src/client/', pathNot: '^src/client/board-actions/' }, to: { path: '^src/client/board-actions/' } },
    { name: 'web-not-ui', severity: 'error', comment: 'src/web (the board in a browser) is a sibling of src/ui and never imports it, nor the runner, the CLI or the demo: what both faces need moves down into src/client or src/core.', from: { path: '^src/web/' }, to: { path: '^src/(ui|runner|cli|demo)/' } },
    { name: 'web-page-pure', severity: 'error', comment: 'src/web/page (browser code) imports only src/core and itself: never the server, the client layer or Node.', from: { path: '^src/web/page/' }, to: { path: '^src/', pathNot: '^src/(core|web/page)/' } },
    { name: 'web-page-no-node', severity: 'error', comment: 'src/web/page runs in a browser: no Node module.', from: { path: '^src/web/page/' }, to: { dependencyTypes: ['core'] } },
    { name: 'nothing-below-imports-web', severity: 'error', comment: 'src/web is a top like src/ui: core, state, client, runner, ui and demo never import it.', from: { path: '^src/(core|state|client|runner|ui|demo)/' }, to: { path: '^src/web/' } },
    { name: 'ui-not-runner-or-cli', severity: 'error', comment: 'The board talks to runners through src/client.', from: { path: '^src/ui/' }, to: { path: '^src/(runner|cli)/' } },
    { name: 'demo-not-cli', severity: 'error', comment: 'The demo is started by a command; it imports none.', from: { path: '^src/demo/' }, to: { path: '^src/cli/' } },
    { name: 'no-command-imports-another', severity: 'error', comment: 'Shared command code goes in src/client or src/cli (not commands/).', from: { path: '^src/cli/commands/([^/]+)\\.tsx?$' }, to: { path: '^src/cli/commands/', pathNot: '^src/cli/commands/$1\\.tsx?$' } },
    { name: 'no-orphans', severity: 'error', comment: 'A file nothing imports is dead.', from: { orphan: true, pathNot: ['\\.d\\.ts$', '^src/runner/main\\.ts$', '^src/cli/main\\.ts$', '^src/web/server/entry\\.ts$', '^src/web/page/sw/sw\\.ts$'] }, to: {} },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: ['^src/', NODE_BUILTINS],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
