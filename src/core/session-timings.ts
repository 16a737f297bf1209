/** Timings of a session's life that both the runner and the CLI need. */

/** After SIGTERM (and SIGHUP) the program's process group gets SIGKILL if it is still there this much later. */
export const TERMINATE_GRACE_MS = 4000;
