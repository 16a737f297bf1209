/**
 * `doctor`'s checks of this copy's native parts: node-pty, without which no session starts, and
 * our addons (src/runner/native), each optional. An install says the same in one line when it
 * builds them (scripts/postinstall.cjs), but npm shows a script's output only when it fails.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAddon } from '../../state/native-addon.js';
import { ptyProblem, ROOT } from '../../state/this-copy.js';
import type { Check } from './doctor-check.js';

/** Where node-gyp builds the addons, from this module in src/client, dist/client or dist/bundle. */
/** Our addons' build folder, from this file wherever it sits (loadAddon takes paths relative to the caller). */
const BUILT = path.relative(path.dirname(fileURLToPath(import.meta.url)), path.join(ROOT, 'src', 'runner', 'native', 'build', 'Release'));
const ADDONS = [
  { name: 'the echo relay', file: 'echo_relay.node', without: 'keys and echo go through the event loop' },
  { name: 'the helper-threads addon', file: 'helper_threads.node', without: "the board's helper threads keep their priority" },
];

export function ptyCheck(): Check {
  const problem = ptyProblem();
  if (problem === null) return { check: 'pty', status: 'ok', message: 'node-pty loads' };
  return { check: 'pty', status: 'fail', message: `node-pty cannot load (${problem.why}): no session can start`, fix: problem.fix };
}

export function nativeCheck(): Check {
  if (process.platform !== 'linux') {
    return { check: 'native', status: 'ok', message: `no native addons on ${process.platform} (they are for Linux): ${ADDONS.map((a) => a.without).join(', and ')}` };
  }
  const missing = ADDONS.flatMap((a) => {
    const got = loadAddon<object>(import.meta.url, [`${BUILT}/${a.file}`]);
    return typeof got === 'string' ? [`${a.name} ${got}: ${a.without}`] : [];
  });
  if (missing.length === 0) return { check: 'native', status: 'ok', message: `${ADDONS.map((a) => a.name).join(' and ')} load` };
  return { check: 'native', status: 'warn', message: missing.join('; ') };
}
