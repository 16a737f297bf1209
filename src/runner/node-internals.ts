/**
 * What the runner uses of node's own insides (its net.Socket, tty streams and net.Server beyond
 * their documented APIs), in this one file, as pty-internals.ts holds what it uses of node-pty's:
 * a socket's libuv handle (the fd it reads or writes on; a tty writer made non-blocking; reads
 * stopped and started again), its Readable state (the decoder undone), the `onread` option of a
 * tty stream's constructor, and a server's listen step below the cluster check. Each is checked at
 * run time and used only when it is as expected; otherwise the caller takes the documented way,
 * or says why not. test/integration/node-internals.test.ts fails if a node upgrade moves one.
 */
import type net from 'node:net';
import tty from 'node:tty';

/** node's net.Socket (a tty stream is one), as far as the runner reads it. */
interface SocketInternals {
  destroyed?: unknown;
  _readableState?: { decoder?: unknown; encoding?: unknown; length?: unknown; reading?: unknown };
  _handle?: { fd?: unknown; reading?: unknown; readStop?: unknown; setBlocking?: unknown } | null;
  _read?: unknown;
  read?: (n?: number) => unknown;
  destroy?: (...args: unknown[]) => unknown;
  emit?: (event: string, data: Buffer) => unknown;
}

const insides = (s: unknown) => s as SocketInternals | undefined;

/** The fd a tty stream's libuv handle reads or writes (node's handle keeps it as `fd`), or null. */
export function streamFd(stream: net.Socket): number | null {
  const own = insides(stream)?._handle?.fd;
  return typeof own === 'number' && own >= 0 ? own : null;
}

/**
 * tty.WriteStream makes its writes blocking (right for a process's own stdout); its handle's
 * setBlocking(false) undoes that (libuv then waits for the fd to be writable, as for a socket).
 * False when the handle has no such method, or it failed.
 */
export function makeNonBlocking(out: tty.WriteStream): boolean {
  const handle = insides(out)?._handle;
  if (typeof handle?.setBlocking !== 'function') return false;
  return (handle.setBlocking as (blocking: boolean) => number).call(handle, false) === 0;
}

/**
 * A tty stream that hands each read's bytes straight to `onBytes` (net.Socket's `onread`: libuv
 * reads into `buffer`, with no Readable stream, 'data' event or nextTick between a read and
 * us); end of file and errors still come as the stream's events. Started by resume().
 */
export function ttyReaderInto(fd: number, buffer: Buffer, onBytes: (bytes: Buffer) => void): tty.ReadStream {
  const onread = { buffer, callback: (n: number) => onBytes(buffer.subarray(0, n)) };
  // @types/node lists onread for connect() only; net.Socket's constructor, which tty.ReadStream calls with these options, takes it too.
  return new tty.ReadStream(fd, { onread } as net.SocketConstructorOpts);
}

/**
 * A socket's reads as Buffers, however it was made: the decoder node's Readable keeps
 * (_readableState's decoder and encoding) is cleared before any read. False where node keeps
 * it elsewhere, or something was read already: then reads stay as they were.
 */
export function undoSocketDecoding(socket: unknown): boolean {
  const state = insides(socket)?._readableState;
  if (!state || !('decoder' in state) || !('encoding' in state) || state.length !== 0) return false;
  state.decoder = state.encoding = null;
  return true;
}

/**
 * Stops a socket's reads while somebody else reads its fd: libuv's read is stopped, and the
 * socket's _read (which Readable's read-ahead calls, and which would start it again) does nothing
 * until the returned undo puts it back and starts reading again. Null when the socket is not as
 * expected: then nothing was changed.
 */
export function holdSocketReads(socket: unknown): (() => void) | null {
  const s = insides(socket);
  const h = s?._handle;
  if (!s || !h || typeof h.readStop !== 'function' || typeof s.read !== 'function' || s.destroyed !== false || !s._readableState) return null;
  s._read = () => {};
  if (h.reading === true) {
    h.reading = false;
    (h.readStop as () => number).call(h);
  }
  return () => {
    delete s._read; // net.Socket's own again
    if (s.destroyed !== false) return;
    s._readableState!.reading = false;
    s.read!(0); // net.Socket._read: libuv reads again (a paused socket fills its buffer, as before)
  };
}

/** node's net.Server, as far as listening on a path below the cluster check goes. */
interface ServerInternals {
  _listen2?: (address: string, port: number, addressType: number, backlog?: number) => void;
  _pipeName?: string;
}

/**
 * Starts `server` listening on a unix socket `path` the way `server.listen(path)` ends up doing
 * it, through `server._listen2`, a name node keeps "to avoid breaking code that wraps this
 * method" (lib/net.js), without the cluster check before it (src/runner/clients/listen-unix.ts says why).
 * False when this node has no `_listen2`: nothing was done.
 */
export function listenPipeDirectly(server: net.Server, path: string): boolean {
  const s = server as net.Server & ServerInternals;
  if (typeof s._listen2 !== 'function') return false;
  s._pipeName = path; // what listen sets for a path: server.address() reads it
  s._listen2(path, -1, -1);
  return true;
}

/**
 * Runs `first` when the socket is destroyed, before node's own destroy (node-pty destroys its
 * reader on a timer after the exit: pty-internals.ts beforeDestroy). False when it has no destroy().
 */
export function beforeSocketDestroy(socket: unknown, first: () => void): boolean {
  const s = insides(socket);
  const destroy = s?.destroy;
  if (!s || typeof destroy !== 'function') return false;
  s.destroy = (...args: unknown[]) => {
    first();
    return destroy.apply(s, args);
  };
  return true;
}

/**
 * A way to hand bytes to a socket's own 'data' listeners, in order: first what its Readable buffer
 * holds (a paused socket's; Readable's read() hands each chunk to them), then what is given. Null
 * when the socket has no read() or emit().
 */
export function socketDataFeed(socket: unknown): ((data: Buffer) => void) | null {
  const s = insides(socket);
  if (!s || typeof s.read !== 'function' || typeof s.emit !== 'function') return null;
  while (s.read() !== null);
  return (data) => void s.emit!('data', data);
}
