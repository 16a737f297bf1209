/**
 * Resume-after-limit turned on or off for a session that exists (the board's L; docs/usage.md,
 * "Carrying on after a limit"): through its runner while it runs (the runner owns host.json, and
 * plans its resume again from the written record), else in host.json, for its next start.
 */
import type { Time } from '../../core/clock.js';
import { DisposableStore } from '../../core/lifetime.js';
import { DEFAULT_RESUME_PER_DAY, DEFAULT_RESUME_PROMPT } from '../../core/usage/limit-state.js';
import { readUserConfig } from '../../state/config.js';
import { EXIT, UserError } from '../../state/errors.js';
import { writeHostFile, type SessionView } from '../../state/host-store.js';
import { hostFile } from '../../state/paths.js';
import { writing } from '../../state/write-errors.js';
import { connectSession } from './sessions.js';

export type ResumeSetting = { prompt: string; perDay: number } | null;

/** What turning it on sets: the kind's own setting of config.json, else the default prompt and tries. */
export function resumeSettingFor(kind: string, env: NodeJS.ProcessEnv = process.env): { prompt: string; perDay: number } {
  return readUserConfig(env).config.resumeAfterLimit[kind] ?? { prompt: DEFAULT_RESUME_PROMPT, perDay: DEFAULT_RESUME_PER_DAY };
}

export async function setResumeAfterLimit(home: string, s: SessionView, set: ResumeSetting, time: Time): Promise<void> {
  if (s.status === 'running' || s.status === 'starting') {
    const conn = await connectSession(home, s, 'resume-after-limit', time);
    const listening = new DisposableStore();
    try {
      await new Promise<void>((resolve, reject) => {
        listening.add(
          conn.onMessage((m) => {
            if (m.type === 'status') resolve();
            if (m.type === 'error') reject(new UserError(m.message, m.code === 'cannot_write' ? EXIT.cannotWrite : EXIT.failure));
          }),
        );
        listening.add(conn.onClose(() => reject(new UserError(`${s.name} went away before it took the setting`, EXIT.sessionUnavailable))));
        conn.send({ type: 'resume_after_limit', set });
      });
    } finally {
      listening.dispose();
      conn.dispose();
    }
    return;
  }
  const { runnerAlive: _alive, heartbeatStale: _stale, ...record } = s;
  const file = hostFile(home, s.id);
  writing("the session's record", file, () => writeHostFile(file, { ...record, resumeAfterLimit: set ?? undefined }), 'turn it on or off again');
}
