import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Integration tests spawn real runners and PTYs; two cores, so keep parallelism modest.
    maxWorkers: 2,
    // A backstop for a test that hangs, not a measure of speed: every wait inside a test has its own
    // bound on the event it waits for. The longest scenarios (the board's in tmux, a fake agent's
    // restart and fork) take 15-28 s on two cores with the suite beside them, and longer when the
    // machine is busier still; at 30 s they failed there while nothing was wrong.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
