/**
 * A session's command as a user knows it (ls's COMMAND, the board's filter): the program by its
 * name, not its path; a node script by the script's name (the demo agent is `demo-agent`, not
 * `/usr/bin/node /…/dist/bundle/demo-agent.js`); and for an agent kind only the words the user
 * gave, never the arguments agent-board wrote for its wiring (`--settings …`, `--peer bob`).
 */
import type { HostRecord } from './protocol/host-record.js';

const SCRIPT = /\.(c|m)?js$/;

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

export function commandWords(s: Pick<HostRecord, 'agent' | 'command' | 'args' | 'extraArgs'>): string[] {
  let program = baseName(s.command);
  let args = s.args;
  if ((program === 'node' || program === 'nodejs') && args[0] !== undefined && SCRIPT.test(args[0])) {
    program = baseName(args[0]).replace(SCRIPT, '');
    args = args.slice(1);
  }
  return [program, ...(s.agent === 'shell' ? args : (s.extraArgs ?? []))];
}

export function commandShown(s: Pick<HostRecord, 'agent' | 'command' | 'args' | 'extraArgs'>): string {
  return commandWords(s).join(' ');
}
