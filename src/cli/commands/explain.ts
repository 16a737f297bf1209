import type { Command } from 'commander';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { requestExplanation } from '../../client/session/explain.js';
import type { RunnerConnection } from '../../client/link/connection.js';
import { connectRemote } from '../../client/remote/remote.js';
import { connectSession, findSession } from '../../client/session/sessions.js';
import { EXPLAIN_LABEL_WIDTH, explanationText } from '../../core/agents/explain-text.js';
import { sandboxLines } from '../../core/sandbox/sandbox-text.js';
import { sandboxExplained } from '../../client/session/sandbox-explain.js';
import { usageExplained } from '../../core/usage/usage-text.js';
import { writeFailureAdvice } from '../../core/write-failure.js';
import { EXIT, UserError } from '../../state/errors.js';
import { getHome } from '../context.js';
import { cliTime } from '../cli-time.js';

/**
 * `agent-board explain <session> [--json]`: why a session shows its state:
 * the layer that decided it and by which rule, each layer's last reading
 * and the pattern that matched, whether hooks are wired and when they last
 * fired, and the rule files read. Asked of the session's runner, which holds
 * the readings.
 */
export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description('why a session shows its state (busy, idle, waiting): layers, rules, hooks')
    .argument('<session>', 'id, name or unique prefix')
    .option('--json', 'print the explanation as JSON')
    .option('--host <[user@]host>', 'a session on another machine, over ssh')
    .action(async (ref: string, o: { json?: boolean; host?: string }) => {
      const time = cliTime();
      let conn: RunnerConnection;
      let s: { id: string; name: string };
      let home: string | null = null;
      if (o.host) {
        conn = await connectRemote(o.host, ref, { client: 'explain', readOnly: true, scheduler: time.scheduler });
        s = { id: conn.hello.host.id, name: conn.hello.host.name };
      } else {
        home = getHome();
        const found = findSession(home, ref);
        s = found;
        const here = home;
        conn = await connectSession(home, found, 'explain', time, true).catch((err: unknown) => {
          // Ended or lost, a sandboxed session's record still says its sandbox and the hosts it was refused.
          if (found.sandbox) writeSandboxOnly(here, found, o.json === true, time.clock.now());
          throw err;
        });
      }
      try {
        const x = await requestExplanation(conn).catch((err: Error) => {
          throw new UserError(`session ${s.name} could not explain itself: ${err.message} (a runner older than this agent-board? restart it)`, EXIT.sessionUnavailable);
        });
        // A runner that cannot write its record says so: its state is still right, it comes from the runner.
        const failed = conn.hello.host.cannotWrite;
        const disk = failed ? { cannotWrite: failed, cannotWriteSince: conn.hello.host.cannotWriteSince } : {};
        // What the session spent, and the file the runner read it from (docs/usage.md); its usage limit and resume.
        const { usage, limited, resumeAfterLimit, limitResumes } = conn.hello.host;
        const limits = { ...(limited ? { limited } : {}), ...(resumeAfterLimit ? { resumeAfterLimit, limitResumes: limitResumes ?? [] } : {}) };
        // Its sandbox as its record keeps it, and the hosts its proxy refused (docs/sandbox.md, "Where you see it").
        const { sandbox, sandboxDenied } = conn.hello.host;
        const boxed = { ...(sandbox ? { sandbox, sandboxDenied: sandboxDenied ?? [] } : {}) };
        // Here, this machine's facts (the whole allowlist, the places); another machine's session in words.
        const lines = home ? sandboxExplained(home, conn.hello.host, time.clock.now()) : sandboxLines(conn.hello.host, time.clock.now());
        const sandboxText = lines.map(([label, text]) => `${label.padEnd(EXPLAIN_LABEL_WIDTH)}${text}\n`).join('');
        if (o.json) process.stdout.write(`${JSON.stringify({ id: s.id, name: s.name, ...x, ...disk, ...limits, ...boxed, ...(usage ? { usage } : {}) }, null, 2)}\n`);
        else process.stdout.write(`${explanationText(s.name, x, time.clock.now(), conn.hello.host)}\n${sandboxText}${usageExplained(usage)}\n${failed ? `${cannotWriteNote(s.name, failed)}\n` : ''}`);
      } finally {
        conn.dispose();
      }
    });
}

/** A sandboxed session without a runner to ask: its sandbox and refused hosts from its record (then the error says why no more). */
function writeSandboxOnly(home: string, rec: HostRecord, json: boolean, now: number): void {
  if (json) process.stdout.write(`${JSON.stringify({ id: rec.id, name: rec.name, sandbox: rec.sandbox, sandboxDenied: rec.sandboxDenied ?? [] }, null, 2)}\n`);
  else process.stdout.write(sandboxExplained(home, rec, now).map(([label, text]) => `${label.padEnd(EXPLAIN_LABEL_WIDTH)}${text}\n`).join(''));
}

/** The line explain adds for a runner that cannot write its record: alive, its state its own, and what to do. */
function cannotWriteNote(name: string, code: string): string {
  return `${name}'s runner cannot write its record (host.json): ${writeFailureAdvice(code, 'it writes again by itself')}; it runs, and what it says here is its own`;
}
