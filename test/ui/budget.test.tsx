/**
 * Budgets on the board (docs/usage.md, "Budgets"): a session's row says when a budget is 80 %
 * used or spent (the record's budgetState, kept by its runner), and a prompt that a spent budget
 * holds says why on the panel, where `!` sends it anyway, once, over the budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { FakeFeed, session } from './fakes.js';
import { eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const footer = () => m!.out.lines()[22]!;
const text = () => m!.out.text();
const HELD = 'spender is over its budget ($5.20 of $5.00): new prompts are held until the budget is raised (config.json "budgets", or a new --budget); send --over-budget sends one anyway';

describe('budgets on the board', () => {
  it('marks the row at 80 % and when spent; the preview title says it too', async () => {
    const a = session({ name: 'saver' });
    const b = session({ name: 'warned', budgetState: { level: 'warned', percent: 85, line: 'warned used 85 % of its budget ($4.25 of $5.00)' } });
    const c = session({ name: 'spender', budgetState: { level: 'over', percent: 104, line: 'spender is over its budget ($5.20 of $5.00)' } });
    m = mountBoard(new FakeFeed([a, b, c]), { cols: 100, rows: 24 });
    await eventually(m.out, () => expect(text()).toContain('spender'));
    const row = (name: string) => m!.out.lines().find((l) => l.includes(` ${name} `))!;
    expect(row('warned')).toContain('budget 85%');
    expect(row('spender')).toContain('overbudget'); // the row's ten columns
    expect(row('saver')).not.toContain('budget');
    await m.stdin.type('j', 'j');
    await eventually(m.out, () => expect(text()).toContain('(idle · over budget)'));
  });

  it('a prompt a spent budget holds is not typed and the panel says why; ! sends it anyway, once', async () => {
    const s = session({ name: 'spender', budgetState: { level: 'over', percent: 104, line: 'spender is over its budget ($5.20 of $5.00)' } });
    m = mountBoard(new FakeFeed([s]), { cols: 160, rows: 24 });
    m.actions.runner(s.id).heldBy = HELD;
    await eventually(m.out, () => expect(text()).toContain('› ● spender'));
    m.stdin.press('p');
    await eventually(m.out, () => expect(text()).toMatch(/── prompt to spender ─+/));
    m.stdin.press('fix it' + KEY.enter);
    await eventually(m.out, () => expect(text()).toContain('   spender  not typed  spender is over its budget ($5.20 of $5.00): prompts held'));
    expect(footer()).toBe('spender: not typed: spender is over its budget ($5.20 of $5.00): prompts held (! sends it anyway)  ! send anyway  Esc close');
    expect(m.actions.runner(s.id).promptsSent()).toEqual(['fix it']);

    m.stdin.press('!');
    await eventually(m.out, () => expect(text()).toMatch(/ {3}spender {2}applied *$/m));
    expect(footer()).not.toContain('! send anyway');
    const prompts = m.actions.runner(s.id).sent.filter((x) => x.type === 'input');
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toMatchObject({ durable: true, submit: true, data: 'fix it', overBudget: true });
    m.stdin.press('!'); // nothing held any more: nothing sent again
    await new Promise((r) => setTimeout(r, 50));
    expect(m.actions.runner(s.id).promptsSent()).toEqual(['fix it', 'fix it']);
  });
});
