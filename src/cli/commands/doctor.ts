/** `agent-board doctor [--json]`: one line per check (ok, warn, fail and what to do); exit 1 if any fails. */
import type { Command } from 'commander';
import { cliTime } from '../cli-time.js';
import { doctorExitCode, runDoctor, type Check } from '../../client/doctor/doctor.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check this machine: the home, the build, config.json, logout and reboot, each agent CLI, lost sessions')
    .option('--json', 'print the checks as a JSON array of {check, status, message, fix?}')
    .action(async (o: { json?: boolean }) => {
      const checks = await runDoctor(process.env, cliTime().scheduler);
      process.stdout.write(o.json ? JSON.stringify(checks, null, 2) + '\n' : checks.map(line).join('\n') + '\n');
      process.exitCode = doctorExitCode(checks);
    });
}

function line(c: Check): string {
  return `${c.status.padEnd(4)}  ${c.check}: ${c.message}${c.fix ? ` -> ${c.fix}` : ''}`;
}
