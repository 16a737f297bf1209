/**
 * Resume-after-limit turned on or off for a session that exists (the board's L; docs/usage.md,
 * "Carrying on after a limit"): through its runner while it runs (the runner owns host.json, and
 * plans its resume again from the written record), else in host.json, for its next start.
 */
import type { Time } from '../../core/clock.js';
import { DEFAULT_RESUME_PER_DAY, DEFAULT_RESUME_PROMPT } from '../../core/usage/limit-state.js';
import { readUserConfig } from '../../state/config.js';
import type { SessionView } from '../../state/host-store.js';
import { changeRecord } from './record-setting.js';

export type ResumeSetting = { prompt: string; perDay: number } | null;

/** What turning it on sets: the kind's own setting of config.json, else the default prompt and tries. */
export function resumeSettingFor(kind: string, env: NodeJS.ProcessEnv = process.env): { prompt: string; perDay: number } {
  return readUserConfig(env).config.resumeAfterLimit[kind] ?? { prompt: DEFAULT_RESUME_PROMPT, perDay: DEFAULT_RESUME_PER_DAY };
}

export async function setResumeAfterLimit(home: string, s: SessionView, set: ResumeSetting, time: Time): Promise<void> {
  await changeRecord(home, s, time, {
    msg: { type: 'resume_after_limit', set },
    patch: { resumeAfterLimit: set ?? undefined },
    client: 'resume-after-limit',
    gone: 'before it took the setting',
    again: 'turn it on or off again',
  });
}
