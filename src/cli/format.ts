import { ago as agoAt } from '../core/board/ago.js';

/** Small human formats for the CLI's tables. */

export function ago(iso: string | null, nowMs = Date.now()): string {
  return agoAt(iso, nowMs);
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}
