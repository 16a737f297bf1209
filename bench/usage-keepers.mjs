// A child of bench/usage.mjs: SESSIONS sessions' usage kept fresh in this one process, as their
// runners keep it (src/runner/usage/usage-keeper.ts: a read at each turn's end and every
// BUSY_READ_MS while busy), or, for the reference, each transcript read again whole at the same
// moments. Every session turns busy for BUSY_S, then idle for IDLE_S, staggered. Prints the CPU
// it used over the window, after the first reads, as JSON.
//   node bench/usage-keepers.mjs <incremental|whole> <dir> <sessions> <seconds>
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.mjs';
import { claudeReader } from './usage-transcripts.mjs';

const dist = (p) => import(path.join(ROOT, 'dist', p));
const { UsageKeeper, BUSY_READ_MS } = await dist('runner/usage/usage-keeper.js');
const { UsageSum } = await dist('core/usage/usage-sum.js');
const { priceTable } = await dist('core/usage/prices.js');
const { Emitter } = await dist('core/lifetime.js');
const { realClock, realScheduler } = await dist('state/real-time.js');

const [mode, dir, sessionsArg, secondsArg] = process.argv.slice(2);
const SESSIONS = Number(sessionsArg);
const SECONDS = Number(secondsArg);
const BUSY_S = 20;
const IDLE_S = 5;
const { reader } = await claudeReader();
const prices = priceTable();
const scheduler = realScheduler();
let writes = 0;

/** The reference: every read parses the whole transcript again, as a keeper with no offset would. */
class WholeKeeper {
  constructor(file, onActivity) {
    this.file = file;
    this.busy = false;
    this.timer = null;
    onActivity((a) => {
      const was = this.busy;
      this.busy = a === 'busy';
      if (this.busy && !was) this.timer = scheduler.setInterval(() => this.read(), BUSY_READ_MS);
      else if (!this.busy && was) {
        this.timer?.dispose();
        this.read();
      }
    });
  }
  read() {
    const sum = new UsageSum(prices);
    const state = reader.initial();
    for (const line of fs.readFileSync(this.file, 'utf8').split('\n')) {
      if (!line) continue;
      const r = reader.line(line, state);
      if (r !== 'skip') sum.addAll(r);
    }
    const t = sum.totals();
    if (t.messages !== this.last) writes += 1;
    this.last = t.messages;
  }
}

const activities = [];
const keepers = [];
for (let i = 0; i < SESSIONS; i++) {
  const file = path.join(dir, `s${i}.jsonl`);
  const activity = new Emitter();
  activities.push(activity);
  keepers.push(
    mode === 'whole'
      ? new WholeKeeper(file, activity.event)
      : new UsageKeeper({ locate: () => ({ file, reader }), onActivity: activity.event, write: () => (writes += 1), log: () => undefined, prices, clock: realClock, scheduler }),
  );
}
// The first reads (a runner's start) are not in the window.
for (const k of keepers) k.read();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
// Each session: busy for BUSY_S, idle for IDLE_S, started at its own offset.
const cycle = (i) => {
  activities[i].fire('busy');
  setTimeout(() => {
    activities[i].fire('idle');
    setTimeout(() => cycle(i), IDLE_S * 1000);
  }, BUSY_S * 1000);
};
for (let i = 0; i < SESSIONS; i++) setTimeout(() => cycle(i), ((BUSY_S + IDLE_S) * 1000 * i) / SESSIONS);
setTimeout(() => {
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100, wallMs: wall, writes })}\n`);
  process.exit(0);
}, SECONDS * 1000);
