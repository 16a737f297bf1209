/**
 * ccusage in the lane: the pinned bins (test/agents/clis.json, installed by .ci/run beside the CLIs),
 * found or why not, and run with `--json`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/home.js';
import { CLIS_DIR } from './lane.js';

const PINNED = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'agents', 'clis.json'), 'utf8')) as Record<string, { package: string; version: string }>;

/** ccusage's bin (`ccusage` or `ccusage-codex`) when installed at its pinned version, else why not. */
export function findCcusage(name: 'ccusage' | 'ccusage-codex'): { bin: string } | { skip: string } {
  const { package: pkg, version } = PINNED[name]!;
  let found: string;
  try {
    found = (JSON.parse(fs.readFileSync(path.join(CLIS_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return { skip: `${pkg}@${version} is not installed in ${CLIS_DIR} (.ci/run installs it)` };
  }
  if (found !== version) return { skip: `${pkg} in ${CLIS_DIR} is ${found}, pinned to ${version} (run .ci/run)` };
  return { bin: path.join(CLIS_DIR, 'node_modules', '.bin', name) };
}

export function notRunBanner(what: string, why: string): void {
  const bar = '!'.repeat(100);
  console.error(`\n${bar}\n!! ${what}: NOT RUN: ${why}\n${bar}\n`);
}

/** Runs a ccusage bin with `--json`, parsed. */
export function runJson(bin: string, args: string[], env: Record<string, string>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { env: { PATH: process.env.PATH ?? '', ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${path.basename(bin)} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`${path.basename(bin)} ${args.join(' ')} printed no JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}

