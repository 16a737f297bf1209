/**
 * The control lifecycle's pure layer (docs/protocol.md), case by case: the
 * whole command type table (stages, journal, dedup, retry, final stages,
 * retry actions), envelopes and legacy detection, seq ordering, the ledger,
 * resize latest-wins and the journal with its GC policy.
 */
import { describe, expect, it } from 'vitest';
import {
  type AckStage,
  type CmdAck,
  type CommandClass,
  type CommandSemantics,
  type CommandStatus,
  type Envelope,
  COMMAND_SEMANTICS,
  CONTROL_TYPES,
  ENVELOPE_FIELDS,
  SeqGate,
  classifyCommand,
  isCommandId,
  isFinalStage,
  readEnvelope,
  withEnvelope,
} from '../../src/core/protocol/control-protocol.js';
import { type RetryAction, type RetryEvent, retryAction } from '../../src/core/protocol/control-retry.js';
import { CommandLedger, LEDGER_CAPACITY } from '../../src/core/protocol/command-ledger.js';
import { ResizeTracker } from '../../src/core/terminal/resize-tracker.js';
import {
  type CommandState,
  type JournalRecord,
  JOURNAL_GC_HIGH,
  JOURNAL_GC_KEEP,
  JOURNAL_PREVIEW_CHARS,
  compactJournal,
  describeInput,
  foldJournal,
  isUnresolved,
  needsCompaction,
  parseJournalLine,
} from '../../src/core/protocol/command-journal.js';
import { MAX_QUIET_MS, MIN_QUIET_MS, validateClientMessage } from '../../src/core/protocol/validate.js';
import { mulberry32 } from '../helpers/rng.js';

const ENV: Envelope = { commandId: 'cmd-1', clientId: 'client.a', seq: 1, viewId: 'sess_01', instanceId: 'gen:1234' };

const ALL_CLASSES: CommandClass[] = ['durable_input', 'keystroke', 'resize', 'interrupt', 'terminate', 'detach', 'redraw', 'reconcile'];
const ALL_STAGES: AckStage[] = ['accepted', 'applied', 'observed', 'superseded', 'rejected'];
const ALL_STATUSES: CommandStatus[] = ['unknown', 'accepted', 'applied', 'accepted_unknown', 'failed'];

// ---- the command type table ---------------------------------------------------------

describe('COMMAND_SEMANTICS: the whole type table', () => {
  const table: Array<[CommandClass, CommandSemantics]> = [
    ['durable_input', { stages: ['accepted', 'applied'], journaled: true, deduplicated: true, retry: 'reconcile_first' }],
    ['keystroke', { stages: [], journaled: false, deduplicated: false, retry: 'never' }],
    ['resize', { stages: ['applied'], journaled: false, deduplicated: true, retry: 'new_id' }],
    ['interrupt', { stages: ['applied'], journaled: false, deduplicated: true, retry: 'never' }],
    ['terminate', { stages: ['applied', 'observed'], journaled: false, deduplicated: true, retry: 'same_id' }],
    ['detach', { stages: ['applied'], journaled: false, deduplicated: true, retry: 'same_id' }],
    ['redraw', { stages: ['applied'], journaled: false, deduplicated: true, retry: 'never' }],
    ['reconcile', { stages: [], journaled: false, deduplicated: false, retry: 'never' }],
  ];

  it.each(table)('%s: stages, journaled, deduplicated, retry rule', (cls, want) => {
    expect(COMMAND_SEMANTICS[cls]).toEqual(want);
  });

  it('covers exactly the eight classes, and is frozen', () => {
    expect(Object.keys(COMMAND_SEMANTICS).sort()).toEqual([...ALL_CLASSES].sort());
    expect(table.map(([c]) => c).sort()).toEqual([...ALL_CLASSES].sort());
    expect(Object.isFrozen(COMMAND_SEMANTICS)).toBe(true);
  });

  it('only durable input is journaled; a journaled command is deduplicated and reconciled before a retry', () => {
    for (const cls of ALL_CLASSES) {
      const s = COMMAND_SEMANTICS[cls];
      expect(s.journaled, cls).toBe(cls === 'durable_input');
      if (s.journaled) expect([s.deduplicated, s.retry], cls).toEqual([true, 'reconcile_first']);
    }
  });

  it('resize is never observed (the runner cannot know the child finished repainting); only terminate is', () => {
    for (const cls of ALL_CLASSES) expect(COMMAND_SEMANTICS[cls].stages.includes('observed'), cls).toBe(cls === 'terminate');
  });

  it('only durable input is ever accepted; no class lists superseded or rejected as a success stage', () => {
    for (const cls of ALL_CLASSES) {
      const stages = COMMAND_SEMANTICS[cls].stages;
      expect(stages.includes('accepted'), cls).toBe(cls === 'durable_input');
      expect(stages.includes('superseded') || stages.includes('rejected'), cls).toBe(false);
    }
  });
});

describe('classifyCommand', () => {
  it.each([
    [{ type: 'input', durable: true }, 'durable_input'],
    [{ type: 'input', durable: false }, 'keystroke'],
    [{ type: 'input' }, 'keystroke'],
    [{ type: 'resize' }, 'resize'],
    [{ type: 'interrupt' }, 'interrupt'],
    [{ type: 'terminate' }, 'terminate'],
    [{ type: 'detach' }, 'detach'],
    [{ type: 'redraw' }, 'redraw'],
    [{ type: 'reconcile' }, 'reconcile'],
  ] as const)('%j -> %s', (msg, cls) => {
    expect(classifyCommand(msg)).toBe(cls);
  });

  it('every control type maps to a class in the table', () => {
    for (const type of CONTROL_TYPES) expect(COMMAND_SEMANTICS[classifyCommand({ type })]).toBeDefined();
  });
});

describe('isFinalStage: every class x every stage', () => {
  // [class, accepted, applied, observed, superseded, rejected]
  const finals: Array<[CommandClass, boolean, boolean, boolean, boolean, boolean]> = [
    ['durable_input', false, true, false, true, true],
    ['keystroke', false, false, false, true, true],
    ['resize', false, true, false, true, true],
    ['interrupt', false, true, false, true, true],
    ['terminate', false, false, true, true, true],
    ['detach', false, true, false, true, true],
    ['redraw', false, true, false, true, true],
    ['reconcile', false, false, false, true, true],
  ];
  const cases = finals.flatMap(([cls, ...flags]) => ALL_STAGES.map((stage, i) => [cls, stage, flags[i]!] as const));

  it.each(cases)('%s / %s -> final %s', (cls, stage, want) => {
    expect(isFinalStage(cls, stage)).toBe(want);
  });

  it('the last success stage of each class with stages is its final one, and only it', () => {
    for (const cls of ALL_CLASSES) {
      const stages = COMMAND_SEMANTICS[cls].stages;
      stages.forEach((st, i) => expect(isFinalStage(cls, st), `${cls}/${st}`).toBe(i === stages.length - 1));
    }
  });
});

describe('retryAction: every class x every event', () => {
  const events: Array<[string, RetryEvent]> = [
    ['timeout', { type: 'timeout' }],
    ['disconnect', { type: 'disconnect' }],
    ['ack final', { type: 'ack', stage: 'applied', final: true }],
    ['ack non-final', { type: 'ack', stage: 'accepted', final: false }],
    ...ALL_STATUSES.map((status): [string, RetryEvent] => [`reconciled ${status}`, { type: 'reconciled', status }]),
  ];
  // Columns in the order of `events`: timeout, disconnect, ack final, ack non-final,
  // reconciled unknown, accepted, applied, accepted_unknown, failed.
  const R = 'resend_same_id';
  const N = 'resend_new_id';
  const matrix: Array<[CommandClass, RetryAction[]]> = [
    ['durable_input', ['reconcile', 'reconcile', 'done', 'wait', R, 'wait', 'done', 'ambiguous', 'done']],
    ['keystroke', ['drop', 'drop', 'done', 'wait', 'drop', 'drop', 'drop', 'drop', 'drop']],
    ['resize', [N, N, 'done', 'wait', N, N, N, N, N]],
    ['interrupt', ['drop', 'drop', 'done', 'wait', 'drop', 'drop', 'drop', 'drop', 'drop']],
    ['terminate', [R, R, 'done', 'wait', R, R, R, R, R]],
    ['detach', [R, R, 'done', 'wait', R, R, R, R, R]],
    ['redraw', ['drop', 'drop', 'done', 'wait', 'drop', 'drop', 'drop', 'drop', 'drop']],
    ['reconcile', ['drop', 'drop', 'done', 'wait', 'drop', 'drop', 'drop', 'drop', 'drop']],
  ];
  const cases = matrix.flatMap(([cls, actions]) => events.map(([name, ev], i) => [cls, name, ev, actions[i]!] as const));

  it('the matrix has a column per event and a row per class', () => {
    expect(matrix.map(([c]) => c).sort()).toEqual([...ALL_CLASSES].sort());
    for (const [, actions] of matrix) expect(actions).toHaveLength(events.length);
  });

  it.each(cases)('%s on %s -> %s', (cls, _name, ev, want) => {
    expect(retryAction(cls, ev)).toBe(want);
  });

  it('a command an earlier runner may have typed is never resent (accepted_unknown is ambiguous)', () => {
    for (const cls of ALL_CLASSES) {
      if (COMMAND_SEMANTICS[cls].retry !== 'reconcile_first') continue;
      expect(retryAction(cls, { type: 'reconciled', status: 'accepted_unknown' })).toBe('ambiguous');
    }
  });

  it('every final ack stage is done, every non-final one waits', () => {
    for (const cls of ALL_CLASSES) {
      for (const stage of ALL_STAGES) {
        const final = isFinalStage(cls, stage);
        expect(retryAction(cls, { type: 'ack', stage, final }), `${cls}/${stage}`).toBe(final ? 'done' : 'wait');
      }
    }
  });
});

// ---- envelopes ------------------------------------------------------------------------

describe('isCommandId', () => {
  it.each([
    ['a', true],
    ['cmd-1', true],
    ['A.b_c:d-9', true],
    ['x'.repeat(128), true],
    ['', false],
    ['x'.repeat(129), false],
    ['has space', false],
    ['slash/y', false],
    ['new\nline', false],
    ['ümlaut', false],
    ['quote"', false],
    [42, false],
    [null, false],
    [undefined, false],
  ])('%j -> %s', (v, want) => {
    expect(isCommandId(v)).toBe(want);
  });
});

describe('readEnvelope', () => {
  it('no envelope field: legacy', () => {
    expect(readEnvelope({ type: 'resize', cols: 80, rows: 24 })).toEqual({ kind: 'legacy' });
  });
  it('all five on a control type: enveloped, with exactly the five fields', () => {
    const r = readEnvelope({ type: 'resize', cols: 80, rows: 24, ...ENV, extra: 1 });
    expect(r).toEqual({ kind: 'enveloped', envelope: ENV });
    expect(r.kind === 'enveloped' && Object.keys(r.envelope)).toEqual([...ENVELOPE_FIELDS]);
  });
  it('partial: invalid, naming the missing fields in table order', () => {
    expect(readEnvelope({ type: 'detach', commandId: 'c', seq: 3 })).toEqual({ kind: 'invalid', message: 'envelope is missing clientId, viewId, instanceId' });
  });
  it('a field set to null counts as present (and then fails its check)', () => {
    expect(readEnvelope({ type: 'detach', ...ENV, seq: null }).kind).toBe('invalid');
  });
});

describe('validateClientMessage with envelopes', () => {
  const legacyControl = [
    { type: 'input', data: 'ls\r' },
    { type: 'resize', cols: 120, rows: 40 },
    { type: 'interrupt' },
    { type: 'terminate' },
    { type: 'terminate', signal: 'KILL' },
    { type: 'detach' },
    { type: 'redraw' },
  ];

  describe('legacy detection: no envelope field => byte-identical message, no envelope key', () => {
    it.each(legacyControl)('%j', (msg) => {
      const r = validateClientMessage(msg);
      expect(r).toEqual({ ok: true, message: msg });
      expect('envelope' in r).toBe(false);
      expect(r.ok && JSON.stringify(r.message)).toBe(JSON.stringify(msg));
    });

    it('a legacy reconcile is answered too (no envelope key)', () => {
      const r = validateClientMessage({ type: 'reconcile' });
      expect(r.ok && JSON.stringify(r.message)).toBe('{"type":"reconcile"}');
      expect('envelope' in r).toBe(false);
    });
  });

  describe('all five present => enveloped; the body carries no envelope field', () => {
    it.each(legacyControl)('%j', (msg) => {
      const r = validateClientMessage({ ...msg, ...ENV });
      expect(r).toEqual({ ok: true, message: msg, envelope: ENV });
      expect(r.ok && JSON.stringify(r.message)).toBe(JSON.stringify(msg));
    });
  });

  describe('partial envelope => envelope_invalid naming the missing fields', () => {
    const partial = (omit: readonly string[], over: Record<string, unknown> = {}) => {
      const m: Record<string, unknown> = { type: 'resize', cols: 80, rows: 24, ...ENV, ...over };
      for (const f of omit) delete m[f];
      return m;
    };
    it.each([
      [['commandId'], undefined],
      [['clientId'], 'cmd-1'],
      [['seq'], 'cmd-1'],
      [['viewId'], 'cmd-1'],
      [['instanceId'], 'cmd-1'],
      [['clientId', 'seq', 'viewId', 'instanceId'], 'cmd-1'],
      [['commandId', 'clientId', 'viewId', 'instanceId'], undefined],
    ] as const)('missing %j (commandId echoed: %s)', (omit, echoed) => {
      const r = validateClientMessage(partial(omit));
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.code).toBe('envelope_invalid');
      expect(r.message).toBe(`envelope is missing ${omit.join(', ')}`);
      expect(r.commandId).toBe(echoed);
    });

    it('an invalid commandId is not echoed', () => {
      const r = validateClientMessage(partial(['seq'], { commandId: 'bad id' }));
      expect(r).toMatchObject({ ok: false, code: 'envelope_invalid' });
      expect(!r.ok && r.commandId).toBeUndefined();
    });
  });

  describe('bad id fields', () => {
    const badIds: unknown[] = ['', 'has space', 'a/b', 'x'.repeat(129), 'é', 7, true, ['a']];
    const cases = (['commandId', 'clientId', 'viewId', 'instanceId'] as const).flatMap((f) => badIds.map((v) => [f, v] as const));
    it.each(cases)('%s = %j -> envelope_invalid naming it', (field, v) => {
      const r = validateClientMessage({ type: 'interrupt', ...ENV, [field]: v });
      expect(r).toMatchObject({ ok: false, code: 'envelope_invalid', message: expect.stringContaining(`"${field}"`) });
      // The commandId is echoed when it is itself valid, so the client can match the error.
      expect(!r.ok && r.commandId).toBe(field === 'commandId' ? undefined : ENV.commandId);
    });
    it('128 characters is the longest id accepted', () => {
      const id = 'z'.repeat(128);
      expect(validateClientMessage({ type: 'interrupt', ...ENV, commandId: id, clientId: id, viewId: id, instanceId: id })).toMatchObject({ ok: true });
    });
  });

  describe('seq', () => {
    it.each([0, -1, -0.5, 1.5, '1', '2', null, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 1])('seq %j -> envelope_invalid', (seq) => {
      const r = validateClientMessage({ type: 'redraw', ...ENV, seq });
      expect(r).toMatchObject({ ok: false, code: 'envelope_invalid', message: expect.stringContaining('"seq"'), commandId: 'cmd-1' });
    });
    it.each([1, 2, 1000, Number.MAX_SAFE_INTEGER])('seq %j is accepted', (seq) => {
      expect(validateClientMessage({ type: 'redraw', ...ENV, seq })).toEqual({ ok: true, message: { type: 'redraw' }, envelope: { ...ENV, seq } });
    });
  });

  describe('envelope fields on a non-control type are ignored (legacy)', () => {
    it.each([
      [{ type: 'hello', protocol: 1 }],
      [{ type: 'subscribe_terminal', sinceSeq: 5 }],
      [{ type: 'status' }],
      [{ type: 'subscribe_status' }],
      [{ type: 'rename', name: 'api-2' }],
    ])('%j with all five fields', (msg) => {
      const r = validateClientMessage({ ...msg, ...ENV });
      expect(r).toMatchObject({ ok: true });
      expect('envelope' in r).toBe(false);
      const plain = validateClientMessage(msg);
      expect(r).toEqual(plain);
      expect(r.ok && JSON.stringify(r.message)).toBe(plain.ok && JSON.stringify(plain.message));
      expect(r.ok && Object.keys(r.message).some((k) => (ENVELOPE_FIELDS as readonly string[]).includes(k))).toBe(false);
    });
    it.each(['hello', 'subscribe_terminal', 'status', 'rename'])('%s with a partial, malformed envelope is not envelope_invalid', (type) => {
      const body: Record<string, unknown> = type === 'hello' ? { protocol: 1 } : type === 'rename' ? { name: 'n' } : {};
      const r = validateClientMessage({ type, ...body, commandId: 'bad id', seq: -3 });
      expect(r).toMatchObject({ ok: true });
      expect('envelope' in r).toBe(false);
    });
  });

  describe('withEnvelope', () => {
    it('keeps the body and adds the five fields; validation gives both back', () => {
      const body = { type: 'resize' as const, cols: 100, rows: 30 };
      const framed = withEnvelope(body, ENV);
      expect(framed).toEqual({ ...body, ...ENV });
      expect(body).toEqual({ type: 'resize', cols: 100, rows: 30 }); // not mutated
      expect(validateClientMessage(JSON.parse(JSON.stringify(framed)))).toEqual({ ok: true, message: body, envelope: ENV });
    });
    it('puts the envelope fields in a fixed order whatever order the envelope object has', () => {
      const shuffled = { seq: 4, instanceId: 'g', viewId: 'v', clientId: 'c', commandId: 'x' } as Envelope;
      expect(Object.keys(withEnvelope({ type: 'detach' }, shuffled))).toEqual(['type', ...ENVELOPE_FIELDS]);
    });
    it('copies only the five fields from the envelope', () => {
      const env = { ...ENV, junk: 1 } as Envelope;
      expect(Object.keys(withEnvelope({ type: 'detach' }, env))).not.toContain('junk');
    });
    it('keeps a durable input body whole', () => {
      const body = { type: 'input' as const, data: 'fix the bug\n', durable: true, submit: true, whenIdle: true, quietMs: 2000 };
      expect(validateClientMessage(withEnvelope(body, ENV))).toEqual({ ok: true, message: body, envelope: ENV });
    });
  });
});

describe('durable input fields', () => {
  const enveloped = (extra: Record<string, unknown>) => validateClientMessage({ type: 'input', data: 'hi', ...ENV, ...extra });

  it('durable input without an envelope is refused', () => {
    expect(validateClientMessage({ type: 'input', data: 'hi', durable: true })).toMatchObject({
      ok: false,
      code: 'invalid_message',
      message: expect.stringContaining('envelope'),
    });
  });

  it('durable enveloped input is accepted with submit/whenIdle defaulted', () => {
    expect(enveloped({ durable: true })).toEqual({
      ok: true,
      message: { type: 'input', data: 'hi', durable: true, submit: false, whenIdle: false, quietMs: undefined },
      envelope: ENV,
    });
  });

  it('an enveloped keystroke stays a plain input', () => {
    expect(enveloped({})).toEqual({ ok: true, message: { type: 'input', data: 'hi' }, envelope: ENV });
    expect(enveloped({ durable: false })).toEqual({ ok: true, message: { type: 'input', data: 'hi' }, envelope: ENV });
  });

  it.each([
    [{ submit: true }],
    [{ submit: false }],
    [{ whenIdle: true }],
    [{ quietMs: 500 }],
    [{ durable: false, submit: true }],
    [{ durable: false, whenIdle: true, quietMs: 500 }],
  ])('%j without durable is refused, enveloped or not', (extra) => {
    const want = { ok: false, code: 'invalid_message', message: expect.stringContaining('"durable": true') };
    expect(validateClientMessage({ type: 'input', data: 'hi', ...extra })).toMatchObject(want);
    expect(enveloped(extra)).toMatchObject({ ...want, commandId: 'cmd-1' });
  });

  it.each([
    ['durable', 1],
    ['durable', 'true'],
    ['submit', 'yes'],
    ['whenIdle', 0],
  ])('%s = %j must be a boolean', (field, v) => {
    expect(enveloped({ durable: true, [field]: v })).toMatchObject({ ok: false, code: 'invalid_message', message: expect.stringContaining(`"${field}"`) });
  });

  it('quietMs bounds are 50..3,600,000 ms', () => {
    expect([MIN_QUIET_MS, MAX_QUIET_MS]).toEqual([50, 3_600_000]);
  });
  it.each([
    [MIN_QUIET_MS, true],
    [MAX_QUIET_MS, true],
    [1000, true],
    [MIN_QUIET_MS - 1, false],
    [MAX_QUIET_MS + 1, false],
    [0, false],
    [-100, false],
    [100.5, false],
    ['1000', false],
    [null, false],
  ])('quietMs %j -> ok %s', (quietMs, ok) => {
    const r = enveloped({ durable: true, whenIdle: true, quietMs });
    expect(r.ok).toBe(ok);
    if (r.ok) expect(r.message).toMatchObject({ quietMs });
    else expect(r).toMatchObject({ code: 'invalid_message', message: expect.stringContaining('"quietMs"') });
  });
});

describe('reconcile commandIds', () => {
  const rec = (extra: Record<string, unknown>) => validateClientMessage({ type: 'reconcile', ...ENV, ...extra });
  it.each([
    [undefined],
    [[]],
    [['a']],
    [['cmd-1', 'cmd-2', 'x'.repeat(128)]],
    [Array.from({ length: 256 }, (_, i) => `c${i}`)],
  ])('accepted: %j', (commandIds) => {
    expect(rec({ commandIds })).toEqual({ ok: true, message: { type: 'reconcile', commandIds }, envelope: ENV });
  });
  it.each([
    ['too many', Array.from({ length: 257 }, (_, i) => `c${i}`)],
    ['not a list', 'cmd-1'],
    ['an object', { 0: 'a' }],
    ['a bad id', ['ok', 'not ok']],
    ['an empty id', ['']],
    ['a number', [1]],
    ['an id too long', ['x'.repeat(129)]],
    ['null', null],
  ])('refused: %s', (_name, commandIds) => {
    expect(rec({ commandIds })).toMatchObject({ ok: false, code: 'invalid_message', message: expect.stringContaining('"commandIds"'), commandId: 'cmd-1' });
  });
});

// ---- seq ordering -----------------------------------------------------------------------

describe('SeqGate', () => {
  it('admits strictly increasing seqs, gaps allowed', () => {
    const g = new SeqGate();
    for (const s of [1, 2, 3, 10, 11, 1000]) expect(g.admit(s)).toEqual({ ok: true });
  });
  it.each([
    ['equal', [1, 2, 2]],
    ['lower', [1, 5, 3]],
    ['back to 1', [4, 1]],
  ])('%s is dropped with a message', (_name, seqs) => {
    const g = new SeqGate();
    const last = seqs.pop()!;
    for (const s of seqs) expect(g.admit(s).ok).toBe(true);
    const r = g.admit(last);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/out of order/);
    expect(!r.ok && r.message).toContain(String(last));
  });
  it('a dropped seq does not move the gate', () => {
    const g = new SeqGate();
    g.admit(5);
    expect(g.admit(3).ok).toBe(false);
    expect(g.admit(4).ok).toBe(false);
    expect(g.admit(6).ok).toBe(true);
  });
  it('each connection has its own gate (a reconnect starts again)', () => {
    const a = new SeqGate();
    a.admit(9);
    expect(new SeqGate().admit(1).ok).toBe(true);
  });

  describe('seq is an ordering aid, never dedup (dedup is the ledger, by commandId)', () => {
    // The runner's order: validate, seq gate, then the ledger.
    const pipeline = () => {
      const gate = new SeqGate();
      const ledger = new CommandLedger();
      return (raw: Record<string, unknown>): 'dropped' | 'new' | 'repeat' => {
        const v = validateClientMessage(raw);
        if (!v.ok || !v.envelope) throw new Error('expected an enveloped message');
        if (!gate.admit(v.envelope.seq).ok) return 'dropped';
        if (ledger.get(v.envelope.commandId)) return 'repeat';
        ledger.begin(v.envelope.commandId, classifyCommand(v.message as { type: 'resize' }));
        return 'new';
      };
    };
    it('the same seq twice is dropped even with different commandIds', () => {
      const send = pipeline();
      expect(send({ type: 'redraw', ...ENV, commandId: 'a', seq: 1 })).toBe('new');
      expect(send({ type: 'redraw', ...ENV, commandId: 'b', seq: 1 })).toBe('dropped');
    });
    it('different seqs with the same commandId are both admitted (the second is a repeat for the ledger)', () => {
      const send = pipeline();
      expect(send({ type: 'redraw', ...ENV, commandId: 'a', seq: 1 })).toBe('new');
      expect(send({ type: 'redraw', ...ENV, commandId: 'a', seq: 2 })).toBe('repeat');
    });
  });
});

// ---- the ledger ---------------------------------------------------------------------------

const ack = (commandId: string, stage: AckStage, extra: Partial<CmdAck> = {}): CmdAck => ({ type: 'cmd_ack', commandId, stage, ...extra });

describe('CommandLedger', () => {
  it('knows nothing about an unseen command', () => {
    const l = new CommandLedger();
    expect(l.get('x')).toBeUndefined();
    expect(l.replay('x')).toBeNull();
    l.note(ack('x', 'applied')); // an ack for a command never begun is ignored
    expect(l.get('x')).toBeUndefined();
  });

  it('begun but not acked yet: remembered, nothing to replay', () => {
    const l = new CommandLedger();
    l.begin('x', 'resize');
    expect(l.get('x')).toEqual({ cls: 'resize', last: null, done: false });
    expect(l.replay('x')).toBeNull();
  });

  it('durable input: in flight replays the last stage without cached; final replays it with cached: true', () => {
    const l = new CommandLedger();
    l.begin('p', 'durable_input');
    l.note(ack('p', 'accepted'));
    expect(l.get('p')?.done).toBe(false);
    const inFlight = l.replay('p');
    expect(inFlight).toEqual(ack('p', 'accepted'));
    expect(inFlight).not.toHaveProperty('cached');
    l.note(ack('p', 'applied'));
    expect(l.get('p')?.done).toBe(true);
    expect(l.replay('p')).toEqual({ ...ack('p', 'applied'), cached: true });
    expect(l.get('p')?.last).not.toHaveProperty('cached'); // the stored ack is not changed
  });

  it.each([
    ['resize', [ack('r', 'applied', { cols: 80, rows: 24 })]],
    ['resize', [ack('r', 'superseded', { byCommandId: 'r2' })]],
    ['terminate', [ack('r', 'applied'), ack('r', 'observed', { exitCode: 0, exitSignal: null })]],
    ['interrupt', [ack('r', 'applied')]],
    ['detach', [ack('r', 'applied')]],
    ['redraw', [ack('r', 'applied')]],
  ] as const)('%s: the final ack is cached with its details', (cls, acks) => {
    const l = new CommandLedger();
    l.begin('r', cls);
    acks.forEach((a, i) => {
      l.note(a);
      const final = i === acks.length - 1;
      expect(l.get('r')?.done).toBe(final);
      expect(l.replay('r')).toEqual(final ? { ...a, cached: true } : a);
    });
  });

  it('a rejected command is forgotten, so a retry is possible', () => {
    const l = new CommandLedger();
    l.begin('p', 'durable_input');
    l.note(ack('p', 'rejected', { code: 'journal_unavailable', message: 'disk full' }));
    expect(l.get('p')).toBeUndefined();
    expect(l.replay('p')).toBeNull();
    l.begin('p', 'durable_input');
    l.note(ack('p', 'accepted'));
    expect(l.replay('p')?.stage).toBe('accepted');
  });

  it('a rejection after a final ack (about a repeat) does not erase the cached answer', () => {
    const l = new CommandLedger();
    l.begin('i', 'interrupt');
    l.note(ack('i', 'applied'));
    l.note(ack('i', 'rejected', { code: 'read_only' }));
    expect(l.replay('i')).toEqual({ ...ack('i', 'applied'), cached: true });
  });

  it('a rejection after acceptance does not forget the command (it must never be typed twice)', () => {
    const l = new CommandLedger();
    l.begin('p', 'durable_input');
    l.note(ack('p', 'accepted'));
    l.note(ack('p', 'rejected', { code: 'instance_mismatch' }));
    expect(l.replay('p')).toEqual(ack('p', 'accepted'));
    l.note(ack('p', 'applied'));
    expect(l.replay('p')).toEqual({ ...ack('p', 'applied'), cached: true });
  });

  it('nothing after a final ack changes it', () => {
    const l = new CommandLedger();
    l.begin('r', 'resize');
    l.note(ack('r', 'applied', { cols: 80, rows: 24 }));
    l.note(ack('r', 'superseded', { byCommandId: 'r2' }));
    expect(l.replay('r')).toEqual({ ...ack('r', 'applied', { cols: 80, rows: 24 }), cached: true });
  });

  it('capacity: the oldest commands are forgotten first', () => {
    expect(LEDGER_CAPACITY).toBe(1024);
    const l = new CommandLedger(3);
    for (const id of ['a', 'b', 'c']) {
      l.begin(id, 'resize');
      l.note(ack(id, 'applied'));
    }
    l.begin('d', 'detach');
    expect(['a', 'b', 'c', 'd'].map((id) => l.get(id) !== undefined)).toEqual([false, true, true, true]);
    l.begin('e', 'detach');
    expect(['b', 'c', 'd', 'e'].map((id) => l.get(id) !== undefined)).toEqual([false, true, true, true]);
    expect(l.replay('c')?.cached).toBe(true);
  });

  it('dedup is by commandId only: another client, another seq, another class still hit the same entry', () => {
    const l = new CommandLedger();
    const first = { ...ENV, commandId: 'same', clientId: 'c1', seq: 1 };
    const second = { ...ENV, commandId: 'same', clientId: 'c2', seq: 77 };
    l.begin(first.commandId, 'terminate');
    l.note(ack('same', 'applied'));
    l.note(ack('same', 'observed', { exitCode: 1, exitSignal: null }));
    expect(l.replay(second.commandId)).toMatchObject({ stage: 'observed', cached: true });
    expect(l.replay('Same')).toBeNull(); // ids are case-sensitive
  });
});

// ---- resize latest-wins ------------------------------------------------------------------------

describe('ResizeTracker', () => {
  const rz = (commandId: string, clientKey: string, cols = 80, rows = 24) => ({ commandId, clientKey, size: { cols, rows } });

  it('a first resize supersedes nothing', () => {
    const t = new ResizeTracker();
    expect(t.offer(rz('r1', 'A'))).toBeNull();
    expect(t.size).toBe(1);
  });

  it('a newer resize from the same client supersedes the older un-applied one, naming it byCommandId', () => {
    const t = new ResizeTracker();
    t.offer(rz('r1', 'A', 80, 24));
    expect(t.offer(rz('r2', 'A', 90, 30))).toEqual({ commandId: 'r1', byCommandId: 'r2' });
    expect(t.offer(rz('r3', 'A', 100, 40))).toEqual({ commandId: 'r2', byCommandId: 'r3' });
    expect(t.drain()).toEqual([rz('r3', 'A', 100, 40)]);
  });

  it('different clients do not supersede each other', () => {
    const t = new ResizeTracker();
    expect(t.offer(rz('a1', 'A'))).toBeNull();
    expect(t.offer(rz('b1', 'B'))).toBeNull();
    expect(t.size).toBe(2);
    expect(t.drain().map((p) => p.commandId)).toEqual(['a1', 'b1']);
  });

  it('the same command again does not supersede itself', () => {
    const t = new ResizeTracker();
    t.offer(rz('r1', 'A'));
    expect(t.offer(rz('r1', 'A'))).toBeNull();
    expect(t.drain()).toEqual([rz('r1', 'A')]);
  });

  it('drains in the order of the newest requests, and is empty after', () => {
    const t = new ResizeTracker();
    t.offer(rz('a1', 'A'));
    t.offer(rz('b1', 'B'));
    t.offer(rz('c1', 'C'));
    t.offer(rz('a2', 'A')); // A is now the newest
    expect(t.drain().map((p) => p.commandId)).toEqual(['b1', 'c1', 'a2']);
    expect(t.size).toBe(0);
    expect(t.drain()).toEqual([]);
    // Applied ones are gone: the next resize supersedes nothing.
    expect(t.offer(rz('a3', 'A'))).toBeNull();
  });

  it('forget drops a client that left and returns its pending resize', () => {
    const t = new ResizeTracker();
    t.offer(rz('a1', 'A'));
    t.offer(rz('b1', 'B'));
    expect(t.forget('A')).toEqual(rz('a1', 'A'));
    expect(t.forget('A')).toBeUndefined();
    expect(t.forget('nobody')).toBeUndefined();
    expect(t.drain()).toEqual([rz('b1', 'B')]);
  });
});

// ---- the journal ---------------------------------------------------------------------------------

const AT = '2026-09-09T00:00:00.000Z';
const accepted = (commandId: string, generation = 'g1'): JournalRecord => ({
  v: 1,
  kind: 'accepted',
  commandId,
  clientId: 'cl',
  generation,
  at: AT,
  command: describeInput(`prompt ${commandId}`, true, false),
});
const applied = (commandId: string, generation = 'g1'): JournalRecord => ({ v: 1, kind: 'applied', commandId, generation, at: AT });
const failed = (commandId: string, generation = 'g1'): JournalRecord => ({ v: 1, kind: 'failed', commandId, generation, at: AT, reason: 'session_exited' });

describe('journal records', () => {
  it('describeInput keeps the length and an 80-character preview', () => {
    expect(JOURNAL_PREVIEW_CHARS).toBe(80);
    const data = 'y'.repeat(200);
    expect(describeInput(data, false, true)).toEqual({ type: 'input', length: 200, preview: 'y'.repeat(80), submit: false, whenIdle: true });
  });

  it.each([accepted('a'), applied('a'), failed('a')])('round-trips a $kind record', (r) => {
    expect(parseJournalLine(JSON.stringify(r))).toEqual(r);
  });

  const good = JSON.stringify(accepted('a'));
  it.each([
    ['a torn line', good.slice(0, good.length - 5)],
    ['half a line', good.slice(0, 20)],
    ['an empty line', ''],
    ['whitespace', '   '],
    ['wrong version 2', JSON.stringify({ ...accepted('a'), v: 2 })],
    ['version as a string', JSON.stringify({ ...accepted('a'), v: '1' })],
    ['no version', JSON.stringify({ ...applied('a'), v: undefined })],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"accepted"'],
    ['an array', JSON.stringify([accepted('a')])],
    ['an empty object', '{}'],
    ['an unknown kind', JSON.stringify({ ...applied('a'), kind: 'observed' })],
    ['no commandId', JSON.stringify({ ...applied('a'), commandId: undefined })],
    ['a numeric commandId', JSON.stringify({ ...applied('a'), commandId: 5 })],
    ['no generation', JSON.stringify({ ...applied('a'), generation: undefined })],
    ['accepted without its command', JSON.stringify({ ...accepted('a'), command: undefined })],
    ['accepted with a null command', JSON.stringify({ ...accepted('a'), command: null })],
    ['junk', 'garbage\u0000{"v":1'],
  ])('skips %s', (_name, line) => {
    expect(parseJournalLine(line)).toBeNull();
  });

  it('a file with torn and foreign lines keeps the good records in order', () => {
    const text = [JSON.stringify(accepted('a')), 'junk', JSON.stringify(applied('a')), good.slice(0, 30)].join('\n');
    const recs = text.split('\n').map(parseJournalLine).filter((r): r is JournalRecord => r !== null);
    expect(recs).toEqual([accepted('a'), applied('a')]);
  });
});

describe('foldJournal', () => {
  const statusOf = (records: JournalRecord[], gen: string) => Object.fromEntries([...foldJournal(records, gen)].map(([id, s]) => [id, s.status]));

  it.each([
    ['accepted by this instance', [accepted('a', 'g2')], 'accepted'],
    ['accepted by an earlier instance', [accepted('a', 'g1')], 'accepted_unknown'],
    ['applied', [accepted('a', 'g1'), applied('a', 'g1')], 'applied'],
    ['failed', [accepted('a', 'g1'), failed('a', 'g1')], 'failed'],
    ['applied without accepted (its accept was compacted away)', [applied('a', 'g1')], 'applied'],
    ['failed without accepted', [failed('a', 'g1')], 'failed'],
    ['accepted by this instance and applied', [accepted('a', 'g2'), applied('a', 'g2')], 'applied'],
  ] as const)('%s -> %s (seen by g2)', (_name, records, status) => {
    expect(statusOf([...records], 'g2')).toEqual({ a: status });
  });

  it('keeps the accepting generation and the command; an applied-only command has no command', () => {
    const m = foldJournal([accepted('a', 'g1'), applied('b', 'g0')], 'g2');
    expect(m.get('a')).toEqual({ commandId: 'a', generation: 'g1', status: 'accepted_unknown', command: describeInput('prompt a', true, false) });
    expect(m.get('b')).toEqual({ commandId: 'b', generation: 'g0', status: 'applied' });
  });

  it('orders commands by first appearance and mixes generations', () => {
    const m = foldJournal([accepted('a', 'g1'), accepted('b', 'g2'), applied('a', 'g2'), accepted('c', 'g2'), accepted('d', 'g1')], 'g2');
    expect([...m.keys()]).toEqual(['a', 'b', 'c', 'd']);
    expect([...m.values()].map((s) => s.status)).toEqual(['applied', 'accepted', 'accepted', 'accepted_unknown']);
    expect([...m.values()].filter(isUnresolved).map((s) => s.commandId)).toEqual(['b', 'c', 'd']);
  });

  it('an empty journal knows nothing', () => {
    expect(foldJournal([], 'g').size).toBe(0);
  });
});

describe('journal GC', () => {
  it('policy constants: above 512 records, keep the newest 256', () => {
    expect([JOURNAL_GC_HIGH, JOURNAL_GC_KEEP]).toEqual([512, 256]);
  });

  it.each([
    [0, false],
    [256, false],
    [511, false],
    [512, false],
    [513, true],
    [10_000, true],
  ])('needsCompaction(%i) -> %s', (n, want) => {
    expect(needsCompaction(n)).toBe(want);
  });

  /** n resolved commands, each an adjacent accepted/applied pair. */
  const pairs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => [accepted(`c${from + i}`), applied(`c${from + i}`)]).flat();

  it('a journal no longer than the keep count comes back whole (a copy)', () => {
    const recs = pairs(128);
    const out = compactJournal(recs);
    expect(out).toEqual(recs);
    expect(out).not.toBe(recs);
  });

  it('keeps exactly the newest 256 records when they hold whole commands', () => {
    const recs = pairs(300); // 600 records
    const out = compactJournal(recs);
    expect(out).toHaveLength(256);
    expect(out).toEqual(recs.slice(-256));
  });

  it('never splits a kept command: an applied in the newest 256 brings its accepted along', () => {
    // a0 a1 p0 a2 p1 a3 p2 ...: each command's records are two apart, so any cut splits one.
    const recs: JournalRecord[] = [accepted('c0')];
    for (let i = 1; i < 300; i++) recs.push(accepted(`c${i}`), applied(`c${i - 1}`));
    recs.push(applied('c299'));
    expect(recs).toHaveLength(600);
    const out = compactJournal(recs);
    // The newest 256 start at p171 (index 344); a171 (341) and a172 (343) lie before the cut.
    expect(out).toHaveLength(258);
    expect(out.slice(0, 2)).toEqual([accepted('c171'), accepted('c172')]);
    const count = (rs: JournalRecord[], id: string) => rs.filter((r) => r.commandId === id).length;
    for (const id of new Set(out.map((r) => r.commandId))) expect(count(out, id), id).toBe(2);
    expect(out.slice(-256)).toEqual(recs.slice(-256));
  });

  it('keeps every record of unresolved commands however old, in order, with their status', () => {
    const old = [accepted('u1', 'g0'), accepted('u2', 'g1')];
    const recs = [...old, accepted('x', 'g0'), failed('x', 'g0'), ...pairs(300)];
    const out = compactJournal(recs);
    expect(out.slice(0, 2)).toEqual(old);
    expect(out).toHaveLength(258);
    expect(out.some((r) => r.commandId === 'x')).toBe(false); // resolved and old: forgotten
    const after = foldJournal(out, 'g1');
    expect([after.get('u1')?.status, after.get('u2')?.status]).toEqual(['accepted_unknown', 'accepted']);
  });

  it('an unresolved command inside the newest records is not kept twice', () => {
    const recs = [...pairs(300), accepted('late')];
    const out = compactJournal(recs);
    expect(out.filter((r) => r.commandId === 'late')).toHaveLength(1);
    // The newest 256 (late + 255) start on the applied of c172, so its accepted comes along.
    expect(out).toHaveLength(257);
    expect(out.slice(0, 2)).toEqual([accepted('c172'), applied('c172')]);
  });

  it('takes another keep count', () => {
    const out = compactJournal(pairs(10), 4);
    expect(out.map((r) => r.commandId)).toEqual(['c8', 'c8', 'c9', 'c9']);
  });

  describe('property: random journals (seeded)', () => {
    type Gen = { records: JournalRecord[]; current: string };

    /** A random journal: several runner generations; commands accepted, then maybe applied or failed some records later. */
    function randomJournal(seed: number): Gen {
      const rnd = mulberry32(seed);
      const int = (n: number) => Math.floor(rnd() * n);
      const target = 513 + int(900);
      const gens = Array.from({ length: 1 + int(4) }, (_, i) => `gen${i}`);
      const records: JournalRecord[] = [];
      // Commands accepted and not yet resolved, by generation index.
      let open: Array<{ id: string; gen: number }> = [];
      let g = 0;
      let next = 0;
      while (records.length < target) {
        const r = rnd();
        if (r < 0.01 && g < gens.length - 1) {
          g++; // a runner restart: what was open stays open (accepted_unknown) unless resolved later
          continue;
        }
        if (r < 0.45 || open.length === 0) {
          const id = `c${next++}`;
          records.push(accepted(id, gens[g]));
          open.push({ id, gen: g });
        } else if (r < 0.93) {
          const k = open.length - 1 - int(Math.min(open.length, 12)); // mostly recent ones
          const [c] = open.splice(k, 1);
          records.push(rnd() < 0.85 ? applied(c!.id, gens[g]) : failed(c!.id, gens[g]));
        } else if (r < 0.96) {
          records.push(applied(`orphan${next++}`, gens[g])); // applied whose accepted is gone
        } else {
          // An open command that stays open: dropped from the pool so it is never resolved.
          open.splice(int(open.length), 1);
        }
      }
      return { records, current: gens[gens.length - 1]! };
    }

    const seeds = Array.from({ length: 150 }, (_, i) => 0x5eed + i * 7919);

    it.each(seeds)('seed %i', (seed) => {
      const { records, current } = randomJournal(seed);
      expect(records.length).toBeGreaterThan(JOURNAL_GC_HIGH);
      const out = compactJournal(records);
      const before = foldJournal(records, current);
      const after = foldJournal(out, current);

      // Order kept: the result is a subsequence of the input.
      let j = 0;
      for (const r of out) {
        while (j < records.length && records[j] !== r) j++;
        expect(j, 'out of order or invented record').toBeLessThan(records.length);
        j++;
      }
      // The newest 256 records are all there.
      expect(out.slice(-JOURNAL_GC_KEEP)).toEqual(records.slice(-JOURNAL_GC_KEEP));

      // Every unresolved command is still unresolved, with the same status and every record.
      const unresolved = [...before.values()].filter(isUnresolved);
      for (const s of unresolved) {
        expect(after.get(s.commandId), s.commandId).toEqual(s);
        expect(out.filter((r) => r.commandId === s.commandId)).toEqual(records.filter((r) => r.commandId === s.commandId));
      }
      // Every kept command keeps its status (and all its records: no pair split).
      for (const [id, s] of after) {
        expect(s, id).toEqual(before.get(id) as CommandState);
        expect(out.filter((r) => r.commandId === id).length, id).toBe(records.filter((r) => r.commandId === id).length);
      }
      // Nothing dropped was unresolved.
      for (const [id, s] of before) if (!after.has(id)) expect(isUnresolved(s), id).toBe(false);

      // Bound: 256 + records of unresolved commands + records needed to keep pairs whole.
      const windowIds = new Set(records.slice(-JOURNAL_GC_KEEP).map((r) => r.commandId));
      const unresolvedIds = new Set(unresolved.map((s) => s.commandId));
      const head = records.slice(0, -JOURNAL_GC_KEEP);
      const unresolvedRecords = records.filter((r) => unresolvedIds.has(r.commandId)).length;
      const pairRecords = head.filter((r) => windowIds.has(r.commandId)).length;
      expect(out.length).toBeLessThanOrEqual(JOURNAL_GC_KEEP + unresolvedRecords + pairRecords);
      // And exactly what the policy names, nothing more.
      expect(out).toEqual(records.filter((r) => windowIds.has(r.commandId) || unresolvedIds.has(r.commandId)));
    });

    it('the generator makes interesting journals (unresolved, split pairs, several generations)', () => {
      let withUnknown = 0;
      let widened = 0;
      for (const seed of seeds) {
        const { records, current } = randomJournal(seed);
        const st = [...foldJournal(records, current).values()];
        if (st.some((s) => s.status === 'accepted_unknown')) withUnknown++;
        const windowIds = new Set(records.slice(-JOURNAL_GC_KEEP).map((r) => r.commandId));
        if (records.slice(0, -JOURNAL_GC_KEEP).some((r) => windowIds.has(r.commandId))) widened++;
      }
      expect(withUnknown).toBeGreaterThan(seeds.length / 3);
      expect(widened).toBeGreaterThan(seeds.length / 2);
    });
  });
});
