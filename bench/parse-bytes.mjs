// Micro-benchmark: the headless model's parse (@xterm/headless 6.0.0, as the runner makes it:
// 200x50, 10,000 lines of scrollback) of the `cat` benchmark's text, fed as strings (what the
// runner did while node-pty decoded the output) and as bytes (what it does now), in the
// runner's batches of 256 KiB of 4 KiB chunks, alternating, several rounds.
//
//   node bench/parse-bytes.mjs [MiB=16] [rounds=5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { makeBigFile } from './throughput.mjs';

const { Terminal } = createRequire(import.meta.url)('@xterm/headless');
const MIB = Number(process.argv[2] ?? 16);
const ROUNDS = Number(process.argv[3] ?? 5);
const CHUNK = 4096;
const BATCH = 64; // chunks per batch: 256 KiB, the model's BATCH_BYTES

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-parse-'));
const { file } = makeBigFile(dir);
const buf = fs.readFileSync(file).subarray(0, MIB * 1024 * 1024);
fs.rmSync(dir, { recursive: true, force: true });

const batches = (join) => {
  const out = [];
  for (let i = 0; i < buf.length; i += CHUNK * BATCH) {
    const parts = [];
    for (let j = i; j < Math.min(i + CHUNK * BATCH, buf.length); j += CHUNK) parts.push(buf.subarray(j, j + CHUNK));
    out.push(join(parts));
  }
  return out;
};
const inputs = {
  string: batches((parts) => parts.map((p) => p.toString('utf8')).join('')),
  bytes: batches((parts) => Buffer.concat(parts)),
};

function parse(items) {
  const t = new Terminal({ cols: 200, rows: 50, scrollback: 10_000, allowProposedApi: true });
  return new Promise((resolve) => {
    const t0 = performance.now();
    let i = 0;
    const next = () => {
      if (i >= items.length) {
        const ms = performance.now() - t0;
        t.dispose();
        resolve(ms);
        return;
      }
      t.write(items[i++], next);
    };
    next();
  });
}

const times = { string: [], bytes: [] };
await parse(inputs.bytes.slice(0, 8)); // warm up both decoders' code
await parse(inputs.string.slice(0, 8));
for (let r = 0; r < ROUNDS; r++) {
  for (const kind of r % 2 ? ['bytes', 'string'] : ['string', 'bytes']) times[kind].push(await parse(inputs[kind]));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const kind of ['string', 'bytes']) {
  const ms = median(times[kind]);
  process.stdout.write(`${kind}: median ${ms.toFixed(0)} ms for ${MIB} MiB, ${(MIB / (ms / 1000)).toFixed(1)} MiB/s (runs ${times[kind].map((x) => x.toFixed(0)).join(', ')} ms)\n`);
}
process.stdout.write(`bytes / string time: ${(median(times.bytes) / median(times.string)).toFixed(2)} (load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')})\n`);
