/** `agent-board send`: type a prompt into a session exactly once (or say it cannot tell), then Enter. */
import type { Command } from 'commander';
import { sendDurable, type SendOutcome } from '../../client/send/durable-send.js';
import { connectRemote } from '../../client/remote/remote.js';
import { connectSession, findSession } from '../../client/session/sessions.js';
import { isCommandId } from '../../core/protocol/control-protocol.js';
import { EXIT, UserError } from '../../state/errors.js';
import { getHome } from '../context.js';
import { textArgument } from '../text-arg.js';
import { parseDuration } from '../duration.js';
import { cliTime } from '../cli-time.js';
import type { Time } from '../../core/clock.js';
import { outputWidth, printOut } from '../print.js';
import { sendJson, sendLine, type SendTarget } from '../send-line.js';

export interface SendCliOptions {
  enter: boolean;
  wait: string;
  timeout: string;
  whenIdle?: boolean;
  quiet: string;
  commandId?: string;
  host?: string;
  json?: boolean;
  overBudget?: boolean;
}

export function registerSend(program: Command): void {
  program
    .command('send')
    .description('type a prompt into a session exactly once (or say it cannot tell), then press Enter')
    .argument('<session>', 'id, name or unique prefix')
    .argument('[text...]', 'the prompt; - reads it from standard input')
    .option('--no-enter', 'type the text without pressing Enter')
    .option('--wait <stage>', 'return once the prompt is "accepted" (journaled) or "applied" (typed)', 'applied')
    .option('--timeout <duration>', 'give up waiting after this long (e.g. 500ms, 30s, 2m)', '30s')
    .option('--when-idle', 'queue it in the session and type it once the program has been quiet (see --quiet)')
    .option('--quiet <duration>', 'with --when-idle: how long without output counts as idle', '2s')
    .option('--command-id <id>', 'the id of an earlier send to retry: the session is asked first, so it is never typed twice')
    .option('--host <user@box>', 'a session on another machine, over ssh')
    .option('--over-budget', 'type it even though a budget the session is under is spent (this prompt only)')
    .option('--json', 'print the outcome as one JSON object: status, commandId (whole), session, name')
    .action(async (ref: string, words: string[], o: SendCliOptions) => {
      if (o.wait !== 'accepted' && o.wait !== 'applied') throw new UserError(`--wait must be accepted or applied, not "${o.wait}"`, EXIT.usage);
      if (o.commandId !== undefined && !isCommandId(o.commandId)) throw new UserError('--command-id must be 1-128 characters of A-Z a-z 0-9 . _ : -', EXIT.usage);
      const timeoutMs = parseDuration(o.timeout, '--timeout');
      const quietMs = parseDuration(o.quiet, '--quiet');
      const text = await textArgument(words, 'send', (t) => t === '');
      const time = cliTime();
      const target: SendTarget = { name: ref, host: o.host };
      const connect = connector(ref, o.host, time, target);
      const outcome = await sendDurable({
        time,
        connect,
        text,
        submit: o.enter,
        whenIdle: o.whenIdle,
        quietMs: o.whenIdle ? quietMs : undefined,
        commandId: o.commandId,
        overBudget: o.overBudget,
        wait: o.wait,
        timeoutMs,
      });
      printOut(`${o.json ? sendJson(outcome, target) : sendLine(outcome, { text, enter: o.enter, whenIdle: o.whenIdle === true }, target, outputWidth())}\n`);
      report(outcome);
    });
}

/** How each attempt connects; `target` learns the session's name and id (over --host, from its runner's hello). */
function connector(ref: string, host: string | undefined, time: Time, target: SendTarget) {
  // remote.ts costs nothing to load (attach takes it too, and the bundle has it in the hot chunk).
  if (host) {
    return async () => {
      const conn = await connectRemote(host, ref, { client: 'send', scheduler: time.scheduler });
      target.name = conn.hello.host.name;
      target.id = conn.hello.host.id;
      return conn;
    };
  }
  const home = getHome();
  const first = findSession(home, ref); // an unknown session fails here, before anything is sent
  target.name = first.name;
  target.id = first.id;
  // Each attempt reads the session afresh: it may have been restarted meanwhile.
  return () => connectSession(home, findSession(home, first.id), 'send', time);
}

/** The outcome's line is on stdout (what was typed where, with the command id to retry with); a failure is one line on stderr. */
function report(o: SendOutcome): void {
  switch (o.status) {
    case 'applied':
    case 'accepted':
      return;
    case 'unconfirmed':
      throw new UserError(o.message, EXIT.unconfirmed);
    case 'not_typed':
      throw new UserError(o.message, o.exitCode as (typeof EXIT)[keyof typeof EXIT]);
  }
}
