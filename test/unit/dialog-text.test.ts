/**
 * The dialog reader on real screens: each recording is replayed into a
 * headless terminal up to a moment a person would describe ("the API-key
 * dialog, No selected"), and what dialogText reads off the rows must be that.
 */
import { describe, expect, it } from 'vitest';
import { dialogText } from '../../src/core/agents/dialog-text.js';
import { Terminal } from '../../src/state/headless-terminal.js';
import { readRecording } from '../helpers/recordings.js';

/** The screen rows once every event of the recording up to `t` ms has been played. */
async function screenAt(file: string, t: number): Promise<string[]> {
  const { meta, events } = readRecording(file);
  const term = new Terminal({ cols: meta.cols, rows: meta.rows, scrollback: 0, allowProposedApi: true });
  for (const e of events) {
    if (e.t > t) break;
    if (e.o !== undefined) await new Promise<void>((r) => term.write(e.o!, r));
    else if (e.resize) term.resize(e.resize[0], e.resize[1]);
  }
  const buf = term.buffer.active;
  const rows = Array.from({ length: term.rows }, (_, y) => buf.getLine(buf.baseY + y)?.translateToString(true) ?? '');
  term.dispose();
  return rows;
}

const opt = (number: number, label: string, selected = false) => ({ number, label, selected });

describe('dialogText on the recordings', () => {
  it("Claude's API-key dialog: the question two rows up, No (recommended) under the cursor", async () => {
    expect(dialogText(await screenAt('claude-120x35.jsonl', 3000))).toEqual({
      question: 'Do you want to use this API key?',
      options: [opt(1, 'Yes'), opt(2, 'No (recommended)', true)],
    });
  });

  it("Gemini's folder-trust box, not the numbered tips printed above it", async () => {
    expect(dialogText(await screenAt('gemini-120x35.jsonl', 4000))).toEqual({
      question: 'Do you trust the files in this folder?',
      options: [opt(1, 'Trust folder (app)', true), opt(2, 'Trust parent folder (dev)'), opt(3, "Don't trust")],
    });
  });

  it("Gemini's sign-in box after its restart (a stale half box above it)", async () => {
    expect(dialogText(await screenAt('gemini-120x35.jsonl', 11000))).toEqual({
      question: 'How would you like to authenticate for this project?',
      options: [opt(1, 'Sign in with Google', true), opt(2, 'Use Gemini API Key'), opt(3, 'Vertex AI')],
    });
  });

  it("Codex's sign-in menu: description rows between the options, the cursor following the arrow keys", async () => {
    const labels = ['Sign in with ChatGPT', 'Sign in with Device Code', 'Sign in another way'];
    const at = async (t: number) => dialogText(await screenAt('codex-120x35.jsonl', t));
    expect(await at(3900)).toEqual({ question: 'Choose how you want to use Codex.', options: labels.map((l, i) => opt(i + 1, l, i === 0)) });
    expect((await at(4300))?.options.map((o) => o.selected)).toEqual([false, true, false]);
    expect((await at(6000))?.options.map((o) => o.selected)).toEqual([false, false, true]);
  });

  it('finds nothing on an idle prompt or mid-turn', async () => {
    expect(dialogText(await screenAt('claude-120x35.jsonl', 9000))).toBeNull();
    expect(dialogText(await screenAt('claude-120x35.jsonl', 20000))).toBeNull();
    expect(dialogText(await screenAt('gemini-turns-120x35.jsonl', 4000))).toBeNull();
  });
});

describe('dialogText on hand-made rows', () => {
  it('needs a run from 1 of at least two options, one of them under the cursor', () => {
    expect(dialogText(['Pick one?', '❯ 1. Only'])).toBeNull();
    expect(dialogText(['Pick one?', '❯ 2. Yes', '  3. No'])).toBeNull();
    expect(dialogText(['Pick one?', '❯ 1. Yes', '', '', '', '', '', '  2. No'])).toBeNull(); // too far apart to be one list
    expect(dialogText(['Tips:', '1. Create GEMINI.md files', '2. /help for more information'])).toBeNull(); // a list, not a dialog
    expect(dialogText(['Pick one?', '❯ 1. Yes', '❯ 2. No'])).toBeNull();
    expect(dialogText(['Pick one?', '❯ 1. Yes', '  2. No'])).toEqual({ question: 'Pick one?', options: [opt(1, 'Yes', true), opt(2, 'No')] });
  });

  it('takes the last run on the screen and the line of text nearest above it when nothing asks', () => {
    expect(dialogText(['1. old', '2. list', 'Choose:', '› 1. a', '  2. b'])).toEqual({ question: 'Choose:', options: [opt(1, 'a', true), opt(2, 'b')] });
  });

  it('does not read a question from past a rule', () => {
    expect(dialogText(['Really?', '────────', '1. Yes', '● 2. No'])).toEqual({ question: '', options: [opt(1, 'Yes'), opt(2, 'No', true)] });
  });
});
