import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real agent recordings (test/fixtures/recordings/README.md for the format). */
export const RECORDINGS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'recordings');

export interface RecEvent {
  t: number;
  meta?: { cols: number; rows: number; cmd: string };
  o?: string;
  i?: string;
  resize?: [number, number];
  exit?: unknown;
}

export const recordingFiles = (): string[] => fs.readdirSync(RECORDINGS_DIR).filter((f) => f.endsWith('.jsonl')).sort();

/** A recording's events, with its size from the meta line (which must be first). */
export function readRecording(file: string): { meta: NonNullable<RecEvent['meta']>; events: RecEvent[] } {
  const events = fs
    .readFileSync(path.join(RECORDINGS_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RecEvent);
  const meta = events[0]?.meta;
  if (!meta) throw new Error(`${file}: no meta line`);
  return { meta, events };
}
