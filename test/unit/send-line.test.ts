import { describe, expect, it } from 'vitest';
import type { SendOutcome } from '../../src/client/send/durable-send.js';
import { sendJson, sendLine } from '../../src/cli/send-line.js';

const ID = '3f2a0c1e-5b7d-4c1e-9a2b-0f1e2d3c4b5a';
const applied: SendOutcome = { status: 'applied', commandId: ID };
const api = { name: 'api', id: 'a1b2c3d4' };
const typed = (text: string, enter = true) => ({ text, enter, whenIdle: false });

describe("send's line", () => {
  it('says what was typed where, the status first, with the start of the command id', () => {
    expect(sendLine(applied, typed('fix the failing test'), api, 80)).toBe('applied: typed "fix the failing test" (+ Enter) into api; command 3f2a0c1e…');
    expect(sendLine(applied, typed('draft', false), api, 80)).toBe('applied: typed "draft" into api; command 3f2a0c1e…');
    expect(sendLine(applied, typed('hi'), { ...api, host: 'box' }, 80)).toBe('applied: typed "hi" (+ Enter) into api on box; command 3f2a0c1e…');
    expect(sendLine({ status: 'accepted', commandId: ID }, { text: 'later', enter: true, whenIdle: true }, api, 80)).toBe('accepted: queued "later" (+ Enter) in api until quiet; command 3f2a0c1e…');
    expect(sendLine({ status: 'accepted', commandId: ID }, typed('soon'), api, 80)).toBe('accepted: journaled "soon" (+ Enter) in api, not typed yet; command 3f2a0c1e…');
    expect(sendLine({ status: 'unconfirmed', commandId: ID, message: 'm' }, typed('x'), api, 80)).toBe('unconfirmed: maybe typed "x" (+ Enter) into api; command 3f2a0c1e…');
    expect(sendLine({ status: 'not_typed', commandId: ID, message: 'm', exitCode: 5 }, typed('x'), api, 80)).toBe('not typed: "x" (+ Enter) into api; command 3f2a0c1e…');
  });

  it('cuts the text to fit the width, and shows newlines and escapes as \\n and \\u001b: always one line, nothing the terminal acts on', () => {
    const long = sendLine(applied, typed('please fix every failing test in the repository and then run the linter'), api, 80);
    expect(long).toBe('applied: typed "please fix every failing…" (+ Enter) into api; command 3f2a0c1e…');
    expect(long.length).toBe(80);
    expect(sendLine(applied, typed('one\ntwo\x1b[2J'), api, 80)).toBe('applied: typed "one\\ntwo\\u001b[2J" (+ Enter) into api; command 3f2a0c1e…');
    expect(sendLine(applied, typed('one\ntwo three four five six seven'), api, 64)).toBe('applied: typed "one\\ntwo…" (+ Enter) into api; command 3f2a0c1e…');
    // Too narrow for any of it: the quotes and the cut still say there was text.
    expect(sendLine(applied, typed('anything at all'), api, 20)).toBe('applied: typed "…" (+ Enter) into api; command 3f2a0c1e…');
  });

  it('--json: the whole command id and the outcome, for a script', () => {
    expect(JSON.parse(sendJson(applied, api))).toEqual({ status: 'applied', commandId: ID, session: 'a1b2c3d4', name: 'api' });
    expect(JSON.parse(sendJson({ status: 'not_typed', commandId: ID, message: 'gone', exitCode: 5 }, { name: 'x', host: 'box' }))).toEqual({
      status: 'not_typed', commandId: ID, session: null, name: 'x', host: 'box', message: 'gone',
    });
  });
});
