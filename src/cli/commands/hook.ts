import type { Command } from 'commander';
import { RunnerConnection } from '../../client/link/connection.js';
import { realScheduler } from '../../state/real-time.js';
import { printErr, printOut } from '../print.js';

/** A hook must never hold its agent up: this is the most it waits for stdin and the runner together. */
export const HOOK_BUDGET_MS = 1500;

/**
 * `agent-board hook <kind> <event> [payload]`: run by an agent's own
 * lifecycle hooks (wired per session, src/core/agents/agent-wiring.ts). It tells the
 * session's runner (AGENT_BOARD_SOCKET, inherited from the session) what
 * happened, with the agent's session id when the event carries one. It always
 * exits 0 and prints nothing, or `{}` with --json (Gemini reads a hook's
 * stdout as JSON): a broken hook must not break the agent.
 */
export function registerHook(program: Command): void {
  program
    .command('hook', { hidden: true })
    .description("report an agent's lifecycle event to its session (used by the agents' hooks)")
    .argument('<kind>', 'the agent kind')
    .argument('<event>', "the hook's event name")
    .argument('[payload]', 'event JSON passed as an argument (Codex notify)')
    .option('--json', 'print {} on stdout (for agents that read a JSON reply)')
    .action(async (kind: string, event: string, payload: string | undefined, o: { json?: boolean }) => {
      const deadline = Date.now() + HOOK_BUDGET_MS;
      try {
        const input = payload ?? (process.stdin.isTTY ? '' : await readStdin(HOOK_BUDGET_MS / 2));
        const sock = process.env.AGENT_BOARD_SOCKET;
        if (sock) await report(sock, kind, event, sessionIdOf(input), Math.max(100, deadline - Date.now()));
      } catch (err) {
        printErr(`agent-board hook: ${(err as Error).message}\n`);
      } finally {
        if (o.json) printOut('{}\n');
        process.exitCode = 0;
      }
    });
}

function sessionIdOf(input: string): string | undefined {
  try {
    const v = JSON.parse(input) as { session_id?: unknown; 'thread-id'?: unknown };
    const id = v.session_id ?? v['thread-id'];
    return typeof id === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

async function report(sock: string, kind: string, event: string, sessionId: string | undefined, timeoutMs: number): Promise<void> {
  const conn = await RunnerConnection.open(sock, { client: `hook ${kind}`, timeoutMs, scheduler: realScheduler() });
  conn.send({ type: 'hook', kind, event, sessionId });
  // A status round trip: the runner has handled the hook once it answers.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    const listening = conn.onMessage((m) => {
      if (m.type === 'status' || m.type === 'error') {
        clearTimeout(timer);
        listening.dispose();
        resolve();
      }
    });
    conn.send({ type: 'status' });
  });
  conn.dispose();
}

function readStdin(timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    const done = () => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(data);
    };
    const timer = setTimeout(done, timeoutMs);
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c: string) => (data += c));
    process.stdin.once('end', done);
  });
}
