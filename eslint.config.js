// @ts-check
/**
 * Lint: typescript-eslint's type-aware rules (it reads the same tsconfig as the compiler, so a
 * rule can ask "is this a promise?"), a few chosen, not a whole preset: each one here has caught
 * a real bug class in this code (a dropped promise, a swallowed error) or keeps a house rule (one
 * clock, one scheduler, injected everywhere but the composition roots).
 */
import tseslint from 'typescript-eslint';

const timeProperties = [
  { object: 'Date', property: 'now', message: 'take a Clock (src/core/clock.ts); only composition roots read the real time' },
  { object: 'performance', property: 'now', message: 'take a Clock (src/core/clock.ts); only composition roots read the real time' },
];

/**
 * One module for processes (docs/architecture.md, "Processes: one module"): a signal goes through
 * sendSignal, an end through terminate, a run through runCommand, a child through startChild or
 * startDetached, all in src/state/process/. Type imports of child_process (ChildProcess) are fine.
 */
const processKill = { object: 'process', property: 'kill', message: 'signal or end a process through src/state/process/ (sendSignal, terminate): the answer is data, the kill on a timer' };
const childProcessImports = ['error', {
  paths: ['node:child_process', 'child_process'].map((name) => ({
    name,
    allowTypeImports: true,
    message: 'run or start a program through src/state/process/ (runCommand, startChild, startDetached): its end goes through terminate',
  })),
}];

const timeRules = {
  'no-restricted-properties': ['error', ...timeProperties, processKill],
  'no-restricted-syntax': ['error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'take a Clock (src/core/clock.ts): new Date(clock.now())' },
  ],
  'no-restricted-globals': ['error',
    ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'].map((name) => ({
      name,
      message: 'take a Scheduler (src/core/clock.ts); only composition roots use the real timers',
    })),
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/**', 'test/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An empty block (a catch above all) must say in a comment why nothing is lost.
      'no-empty': ['error', { allowEmptyCatch: false }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      ...timeRules,
      '@typescript-eslint/no-restricted-imports': childProcessImports,
    },
  },
  {
    // The composition roots: where the real clock and timers are made and handed down (the
    // board's start is src/cli/open-board.ts, under src/cli/**).
    // The demo agent is a program of its own (its file is its main); so is the web server (entry.ts).
    // The page's real clock and timers are src/web/page/browser-time.ts, which its main.tsx hands down.
    files: ['src/runner/main.ts', 'src/web/server/entry.ts', 'src/state/real-time.ts', 'src/cli/**', 'src/demo/demo-agent.ts', 'src/web/page/browser-time.ts'],
    rules: { 'no-restricted-properties': ['error', processKill], 'no-restricted-globals': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    // The one module that signals, ends, runs and starts processes.
    files: ['src/state/process/**'],
    rules: { 'no-restricted-properties': ['error', ...timeProperties], '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
