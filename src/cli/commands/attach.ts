/** `agent-board attach`: a session full screen, typed into until the detach key (or watched, read-only). */
import type { Command } from 'commander';
import { attachTo, type AttachCliOptions } from '../attach-to.js';

export function registerAttach(program: Command): void {
  program
    .command('attach')
    .description('show a session full screen and type into it; the detach key (default Ctrl-\\) leaves it running')
    .argument('<session>', 'id, name or unique prefix')
    .option('-r, --read-only', 'watch without typing or resizing')
    .option('--detach-key <key>', 'the key that detaches: Ctrl-\\ unless set here, e.g. ctrl-] (also AGENT_BOARD_DETACH_KEY); named over the first frame (AGENT_BOARD_ATTACH_HINT=0: not)')
    .option('--host <[user@]host>', 'a session on another machine, over ssh')
    .addHelpText('after', DETACHING)
    .action(async (ref: string, o: AttachCliOptions) => attachTo(ref, o));
}

const DETACHING = `
Detaching: Ctrl-\\ (or the key of --detach-key or AGENT_BOARD_DETACH_KEY) leaves
the session running, and agent-board attach <session> comes back to it.`;
