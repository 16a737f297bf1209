/**
 * xterm's serializer, for clients that turn a screen into text (peek, tests).
 * Apart from the runner's xterm.ts so the runner does not load it: it paints
 * its own frames (src/runner/model/snapshot-frame.ts), and the addon costs every
 * runner about 1.5 MiB of memory.
 */
import serialize from '@xterm/addon-serialize';

export const SerializeAddon = serialize.SerializeAddon;
export type SerializeAddon = InstanceType<typeof serialize.SerializeAddon>;
