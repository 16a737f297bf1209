/**
 * The image a repository's devcontainer.json picks for `--sandbox container` (src/state/sandbox/
 * devcontainer.ts), with real files in a temporary repository, and the JSON-with-comments reading
 * under it (src/core/sandbox/jsonc.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonc } from '../../src/core/sandbox/jsonc.js';
import { devcontainerImage } from '../../src/state/sandbox/devcontainer.js';

describe('parseJsonc', () => {
  it('comments and trailing commas out, a // inside a string kept', () => {
    const text = `// the dev container
{
  /* the image */ "image": "mcr.microsoft.com/devcontainers/base:bookworm", // pinned
  "url": "https://example.com/a\\"//b",
  "features": { "x": [1, 2, /* three */], },
}`;
    expect(parseJsonc(text)).toEqual({ ok: true, value: { image: 'mcr.microsoft.com/devcontainers/base:bookworm', url: 'https://example.com/a"//b', features: { x: [1, 2] } } });
  });

  it('a broken file is an error value, not a throw', () => {
    const r = parseJsonc('{ "image": ');
    expect(r.ok).toBe(false);
  });
});

describe('devcontainerImage', () => {
  let repo: string;
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-devcontainer-'));
    fs.mkdirSync(path.join(repo, '.git'));
    fs.mkdirSync(path.join(repo, 'pkg', 'sub'), { recursive: true });
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  };

  it('none: no file up to the repository top (a file above the repository does not count)', () => {
    expect(devcontainerImage(path.join(repo, 'pkg', 'sub'))).toEqual({ found: 'none' });
  });

  it(".devcontainer/devcontainer.json's image, found from a folder below, with comments", () => {
    write('.devcontainer/devcontainer.json', '{\n  // VS Code wrote this\n  "name": "x",\n  "image": "node:20-bookworm",\n}\n');
    expect(devcontainerImage(path.join(repo, 'pkg', 'sub'))).toEqual({ found: 'image', image: 'node:20-bookworm', file: path.join(repo, '.devcontainer', 'devcontainer.json') });
  });

  it('.devcontainer.json at the top, and .devcontainer/ wins over it', () => {
    write('.devcontainer.json', '{"image": "alpine:3.20"}');
    expect(devcontainerImage(repo)).toMatchObject({ found: 'image', image: 'alpine:3.20' });
    write('.devcontainer/devcontainer.json', '{"image": "debian:12"}');
    expect(devcontainerImage(repo)).toMatchObject({ found: 'image', image: 'debian:12' });
  });

  it('a file that builds its image: one line saying it is not done yet and what to give instead', () => {
    write('.devcontainer/devcontainer.json', '{ "build": { "dockerfile": "Dockerfile" } }');
    const file = path.join(repo, '.devcontainer', 'devcontainer.json');
    expect(devcontainerImage(repo)).toEqual({ found: 'unusable', file, line: `${file} builds its image from a Dockerfile, which agent-board does not do yet: build it and give the tag (--sandbox container:IMAGE)` });
  });

  it('docker compose, no image, and a broken file each say why in one line', () => {
    write('.devcontainer.json', '{ "dockerComposeFile": "compose.yml", "service": "app" }');
    expect(devcontainerImage(repo)).toMatchObject({ found: 'unusable', line: expect.stringContaining('uses docker compose') });
    write('.devcontainer.json', '{ "name": "x" }');
    expect(devcontainerImage(repo)).toMatchObject({ found: 'unusable', line: expect.stringContaining('names no image') });
    write('.devcontainer.json', '{ "image": ');
    const r = devcontainerImage(repo);
    expect(r).toMatchObject({ found: 'unusable', line: expect.stringContaining('is not JSON with comments') });
    expect(r.found === 'unusable' && r.line.includes('\n')).toBe(false);
  });
});
