/**
 * The refused connections host.json keeps (src/core/sandbox/denials.ts) and how explain says them.
 */
import { describe, expect, it } from 'vitest';
import { denialLines, denialText, mergeDenial } from '../../src/core/sandbox/denials.js';
import { SANDBOX_DENIALS_KEPT, type SandboxDenial } from '../../src/core/sandbox/sandbox-types.js';

const at = (s: number) => new Date(Date.UTC(2026, 11, 4, 12, 0, s)).toISOString();

describe('merging a refusal into the record', () => {
  it('the first refusal of a host: count 1, first and last the same', () => {
    expect(mergeDenial(undefined, 'github.com', 443, at(1))).toEqual([{ host: 'github.com', port: 443, count: 1, first: at(1), last: at(1) }]);
  });

  it('the same host and port again: counted, first kept, last moved, and it becomes the most recent', () => {
    let list = mergeDenial(undefined, 'github.com', 443, at(1));
    list = mergeDenial(list, 'example.com', 443, at(2));
    list = mergeDenial(list, 'github.com', 443, at(3));
    expect(list).toEqual([
      { host: 'example.com', port: 443, count: 1, first: at(2), last: at(2) },
      { host: 'github.com', port: 443, count: 2, first: at(1), last: at(3) },
    ]);
  });

  it('another port of the same host is another entry', () => {
    const list = mergeDenial(mergeDenial(undefined, '127.0.0.1', 8080, at(1)), '127.0.0.1', 9090, at(2));
    expect(list.map((d) => `${d.host}:${d.port}`)).toEqual(['127.0.0.1:8080', '127.0.0.1:9090']);
  });

  it(`keeps the ${SANDBOX_DENIALS_KEPT} most recent hosts, dropping the oldest`, () => {
    let list: SandboxDenial[] = [];
    for (let i = 0; i < SANDBOX_DENIALS_KEPT + 5; i++) list = mergeDenial(list, `h${i}.example.com`, 443, at(i));
    expect(list).toHaveLength(SANDBOX_DENIALS_KEPT);
    expect(list[0]?.host).toBe('h5.example.com');
    expect(list.at(-1)?.host).toBe(`h${SANDBOX_DENIALS_KEPT + 4}.example.com`);
  });

  it('a host refused again is not the one dropped', () => {
    let list: SandboxDenial[] = [];
    for (let i = 0; i < SANDBOX_DENIALS_KEPT; i++) list = mergeDenial(list, `h${i}.example.com`, 443, at(i));
    list = mergeDenial(list, 'h0.example.com', 443, at(40));
    list = mergeDenial(list, 'new.example.com', 443, at(41));
    expect(list.map((d) => d.host)).toContain('h0.example.com');
    expect(list.map((d) => d.host)).not.toContain('h1.example.com');
  });

  it('does not change the list it was given', () => {
    const list = mergeDenial(undefined, 'github.com', 443, at(1));
    const copy = structuredClone(list);
    mergeDenial(list, 'github.com', 443, at(2));
    expect(list).toEqual(copy);
  });
});

describe('what explain says of them', () => {
  const hms = (iso: string) => {
    const d = new Date(iso);
    return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
  };

  it('host:port, how often past once, and when last', () => {
    const d: SandboxDenial = { host: 'github.com', port: 443, count: 3, first: at(1), last: at(10) };
    expect(denialText(d, Date.parse(at(15)))).toBe(`github.com:443 ×3, last ${hms(at(10))} (5s ago)`);
    expect(denialText({ ...d, count: 1 }, Date.parse(at(15)))).toBe(`github.com:443, last ${hms(at(10))} (5s ago)`);
  });

  it('the most recent first, one label for them all; none refused: no lines', () => {
    const list = mergeDenial(mergeDenial(undefined, 'a.example.com', 443, at(1)), 'b.example.com', 80, at(2));
    const lines = denialLines(list, Date.parse(at(2)));
    expect(lines.map(([label]) => label)).toEqual(['refused', '']);
    expect(lines[0]?.[1]).toMatch(/^b\.example\.com:80, last /);
    expect(denialLines(undefined, 0)).toEqual([]);
  });
});
