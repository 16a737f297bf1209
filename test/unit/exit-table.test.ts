/** docs/cli.md's table of exit codes and src/state/errors.ts's EXIT name the same codes, each once. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/state/errors.js';

const CLI_MD = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'cli.md');

function documentedCodes(): number[] {
  const text = fs.readFileSync(CLI_MD, 'utf8');
  const section = text.slice(text.indexOf('\n## Exit codes\n'));
  const end = section.indexOf('\n## ', 1);
  const rows = (end < 0 ? section : section.slice(0, end)).split('\n').filter((l) => /^\| \d+ \|/.test(l));
  return rows.map((l) => Number(/^\| (\d+) \|/.exec(l)![1]));
}

describe('the exit codes', () => {
  it('are the table of docs/cli.md, one row each, in order', () => {
    const codes = Object.values(EXIT);
    expect(new Set(codes).size).toBe(codes.length); // one name for each code
    expect(documentedCodes()).toEqual([...codes].sort((a, b) => a - b));
  });
});
