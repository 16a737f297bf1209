import { startDetached } from '../../state/process/start.js';

/**
 * Runs the board's `--notify-cmd` through the shell, detached (its own
 * process group: it outlives nothing of ours and gets none of our signals),
 * with no terminal (stdio ignored: it must not read the board's keys or draw
 * over it), and without waiting for it. `onFail` hears why it could not run
 * or that it ended badly (an exit code other than 0, a signal). `args` are the
 * command's $1, $2... (the notification's title and body): `sh -c "<cmd>"
 * agent-board "<title>" "<body>"`, so the text never passes through the shell's parsing.
 */
export function runNotifyCommand(command: string, env: NodeJS.ProcessEnv, onFail: (why: string) => void, args: readonly string[] = []): void {
  try {
    const child = startDetached('/bin/sh', ['-c', command, 'agent-board', ...args], { env });
    child.once('error', (err) => onFail(err.message));
    child.once('exit', (code, signal) => {
      if (code !== 0) onFail(signal ? `killed by ${signal}` : `exit code ${code}`);
    });
  } catch (err) {
    onFail(err instanceof Error ? err.message : String(err));
  }
}
