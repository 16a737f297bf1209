// The runner starts without what node would act on at start-up for it (NODE_EXTRA_CA_CERTS: a
// certificate file parsed before any script runs, kept in every idle runner's memory) and hands
// it to the program exactly as the user had it (src/core/agents/session-env.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

const environOf = (pid: number) =>
  fs
    .readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter((kv) => kv.startsWith('NODE_EXTRA_CA_CERTS=') || kv.startsWith('AGENT_BOARD_RUNNER_HELD_'));

describe('what the runner starts with', () => {
  it('keeps NODE_EXTRA_CA_CERTS out of the runner and gives the program the same value', async () => {
    const certs = path.join(home, 'extra certs.pem'); // a space, to show the value goes through untouched
    fs.writeFileSync(certs, '');
    const r = cli(home, ['new', '--name', 'env', '--', 'sh', '-c', 'echo "certs=[$NODE_EXTRA_CA_CERTS] held=[${AGENT_BOARD_RUNNER_HELD_NODE_EXTRA_CA_CERTS-unset}]"; exec sleep 60'], { env: { NODE_EXTRA_CA_CERTS: certs } });
    expect(r.code, r.stderr).toBe(0);
    await waitFor('line', () => cli(home, ['peek', 'env']).stdout.includes('certs=['));
    expect(cli(home, ['peek', 'env']).stdout).toContain(`certs=[${certs}] held=[unset]`);
    const runnerPid = JSON.parse(cli(home, ['ls', '--json']).stdout)[0].runnerPid as number;
    expect(environOf(runnerPid)).toEqual([`AGENT_BOARD_RUNNER_HELD_NODE_EXTRA_CA_CERTS=${certs}`]);
  });

});
