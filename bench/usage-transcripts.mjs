// Transcripts like Claude Code's (JSON Lines: an assistant message with its usage, a user message
// with a tool's result), and a reader of them for the bench: the kind's own reader
// (src/core/usage/readers/claude-usage.ts, once it is in dist) when there is one, else this one,
// which reads the same fields the same way (a line without "usage" is not parsed at all).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.mjs';

const dist = (p) => import(path.join(ROOT, 'dist', p));

const TEXT = 'The change keeps the old behaviour for callers that pass no option, and adds a test that fails without it. '.repeat(20);
const RESULT = 'src/state/usage/transcript-tail.ts:42: const chunk = Buffer.allocUnsafe(...)\n'.repeat(100);

let n = 0;
/** One turn's lines: the tool result the agent read (about 8 KiB, no usage) and its answer (about 2.5 KiB, with usage). */
export function turnLines() {
  n += 1;
  const at = new Date().toISOString();
  const user = { type: 'user', timestamp: at, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: RESULT }] } };
  const assistant = {
    type: 'assistant',
    timestamp: at,
    requestId: `req_${n}`,
    message: {
      id: `msg_${n}`,
      model: 'claude-sonnet-4-5-20250929',
      role: 'assistant',
      content: [{ type: 'text', text: TEXT }],
      usage: { input_tokens: 12, output_tokens: 480, cache_creation_input_tokens: 2100, cache_read_input_tokens: 41000 },
    },
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}

/** A transcript of about `bytes`. */
export function writeTranscript(file, bytes) {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  while (written < bytes) {
    let block = '';
    for (let i = 0; i < 100; i++) block += turnLines();
    fs.writeSync(fd, block);
    written += Buffer.byteLength(block);
  }
  fs.closeSync(fd);
  return written;
}

const BENCH_READER = {
  mode: 'lines',
  initial: () => null,
  line(text) {
    if (!text.includes('"usage"')) return [];
    let o;
    try {
      o = JSON.parse(text);
    } catch {
      return 'skip';
    }
    const m = o?.message;
    const u = m?.usage;
    if (!u) return [];
    return [{ at: o.timestamp ?? null, model: m.model ?? '', key: m.id, tokens: { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0, cacheWrite: u.cache_creation_input_tokens ?? 0, cacheRead: u.cache_read_input_tokens ?? 0 } }];
  },
};

/** The reader the bench uses, and whose it is. */
export async function claudeReader() {
  const { USAGE_READERS } = await dist('core/usage/readers/index.js');
  return USAGE_READERS.claude ? { reader: USAGE_READERS.claude, whose: "the claude kind's reader" } : { reader: BENCH_READER, whose: "the bench's Claude-like reader (no claude reader in dist)" };
}
