/**
 * A sandboxed session on the board (docs/sandbox.md, "Where you see it"): its row has the mark
 * after its name, the help says what the mark means, and `e` says its sandbox: the backend, the
 * network and its hosts, what it may write and may not read, the hosts its proxy refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { FakeFeed, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const text = () => m!.out.text();
const row = (name: string) => m!.out.lines().find((l) => l.includes(` ${name} `)) ?? '';

describe('a sandboxed row', () => {
  it('has ▣ after its name, in the name column (the others are as they were); ? says what it means', async () => {
    const boxed = session({ name: 'boxed', sandbox: { backend: 'bwrap', network: 'allowlist' } });
    const a = session({ name: 'plain-one' });
    m = mountBoard(new FakeFeed([boxed, a]), { cols: 100, rows: 30 });
    await eventually(m.out, () => expect(row('boxed')).toMatch(/● boxed ▣ +shell +idle /));
    expect(row('plain-one')).toMatch(/● plain-one +shell +idle /);
    expect(row('plain-one')).not.toContain('▣');
    // The agent column starts in the same place on both rows.
    expect(row('boxed').indexOf('shell')).toBe(row('plain-one').indexOf('shell'));
    m.stdin.press('?');
    await eventually(m.out, () => expect(text()).toContain('moving onto it clears it; ▣ sandboxed'));
  });

  it('a long name is cut for the mark, which is always shown', async () => {
    m = mountBoard(new FakeFeed([session({ name: 'a-very-long-session-name-indeed', sandbox: { backend: 'bwrap', network: 'none' } })]), { cols: 100, rows: 30 });
    await eventually(m.out, () => expect(text()).toMatch(/● a-very-long-sessi… ▣ shell/));
  });

  it('e says its sandbox: backend, network and hosts, writes, hidden, the hosts refused', async () => {
    const last = new Date(2026, 0, 1, 12, 3).toISOString();
    const boxed = session({
      name: 'boxed',
      sandbox: { backend: 'bwrap', network: 'allowlist', allowHosts: ['mcp.example.com'], denyRead: ['/srv/keys'] },
      sandboxDenied: [{ host: 'github.com', port: 443, count: 3, first: last, last }],
    });
    m = mountBoard(new FakeFeed([boxed]), { cols: 120, rows: 44 });
    await eventually(m.out, () => expect(row('boxed')).toContain('▣'));
    m.stdin.press('e');
    await eventually(m.out, () => expect(text()).toMatch(/── why boxed is /));
    const shown = text();
    expect(shown).toMatch(/^sandbox {2}bubblewrap: the program and its children inside, the runner outside$/m);
    expect(shown).toMatch(/^network {2}allowlist: only the listed hosts, through a proxy$/m);
    expect(shown).toMatch(/^ {11}hosts: its kind's own and config\.json's, and mcp\.example\.com$/m);
    expect(shown).toMatch(/^writes {3}its folder, its agent's state folder, its chat room, a private \/tmp; nothing else$/m);
    expect(shown).toMatch(/^hidden {3}\/srv\/keys, ~\/\.ssh, ~\/\.aws, ~\/\.gnupg and such, other agents' and sessions' folders, agent-board's home$/m);
    expect(shown).toMatch(/^refused {2}github\.com:443 ×3, last 12:03:00 \(\d+h ago\)$/m);
  });
});
