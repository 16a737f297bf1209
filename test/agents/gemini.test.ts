/**
 * The real Gemini CLI through agent-board against a local mock
 * (test/agents/lane-suite.ts), with its state home under the system's
 * temporary folder. Gemini reads the settings layer that carries our hooks
 * only from root-owned folders no one else can write to; /tmp is writable by
 * everyone, so the layer must be placed elsewhere (src/client/session/wiring-place.ts)
 * for the hooks to fire and no security warning to reach the user's screen.
 * Not as root there is no such place: no layer, a hooksNote, and the status
 * comes from the title.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { geminiRefusal } from '../../src/client/session/wiring-place.js';
import { agentLane } from './lane-suite.js';

const root = process.getuid?.() === 0;

agentLane('gemini', {
  sources: root ? undefined : { busy: 'title', idle: 'title' },
  // Its SessionStart hook names a fork's id (--session-file imports under an id of Gemini's own).
  forkIdUnknown: !root,
  async afterStart(lane, id, newStderr) {
    const rec = lane.record(id)!;
    const tmpMode = fs.statSync(os.tmpdir()).mode;
    console.log(`[agent lane] gemini: state home ${lane.abHome} (${os.tmpdir()} mode ${(tmpMode & 0o7777).toString(8)}), settings layer ${rec.env?.GEMINI_CLI_SYSTEM_SETTINGS_PATH ?? 'none'}`);
    const shown = await lane.peek('x');
    expect(shown, 'no security warning on its screen').not.toMatch(/Security Warning|is insecure/);
    if (!root) {
      expect(rec.env?.GEMINI_CLI_SYSTEM_SETTINGS_PATH).toBeUndefined();
      expect(rec.hooksNote).toMatch(/not wired: .*uid \d+; its status comes from its title and screen/);
      expect(newStderr.trim()).toBe(`agent-board: ${rec.hooksNote}`);
      return;
    }
    expect(rec.hooksNote).toBeUndefined();
    expect(newStderr).toBe('');
    const file = rec.env!.GEMINI_CLI_SYSTEM_SETTINGS_PATH!;
    expect(fs.existsSync(file)).toBe(true);
    // Where Gemini accepts it: with the home under a world-writable /tmp, outside the session folder.
    expect(geminiRefusal(path.dirname(file))).toBeNull();
    if (tmpMode & 0o002) expect(file.startsWith(lane.abHome)).toBe(false);
  },
});
