/**
 * The import layers (docs/architecture.md): `npm run lint` fails on any of these.
 *   core    pure logic: imports only core (and pure npm libraries; its own tsconfig has no Node)
 *   state   the local machine (files, git, the headless terminal): core and state
 *   client  talking to runners: core, state, client
 *   runner  the runner process: core, state, runner
 *   ui      the board's Ink components: core, state, client, ui
 *   demo    the built-in demo: anything below cli
 *   cli     commander; parsing and printing: anything, but never another command
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
