/**
 * The network proxy of a `--network allowlist` sandbox (docs/sandbox.md "What it may reach"): the
 * HTTP proxy of @anthropic-ai/sandbox-runtime (srt, the library Claude Code sandboxes with), run in
 * the runner, outside the sandbox, for its one session. srt gives what is hard to get right: a
 * domain allowlist (`host`, `*.domain`, `host:port`, IP literals), CONNECT and plain HTTP alike, a
 * check of the address an allowed name resolves to (an allowed name pointed at loopback or a
 * metadata address is refused), and each refusal with the host and port the program tried.
 *
 * We use only its proxy, never its wrap (docs/sandbox.md; the sandbox's argv is ours): srt listens
 * on a Unix socket, which the sandbox gets bound in at the same path, and `bridge` (run inside,
 * before the program) turns it into a proxy on 127.0.0.1:BRIDGE_PORT for the program's
 * HTTP(S)_PROXY. This is the one module that touches srt, and it loads it only when a proxy is
 * started: a runner of any other session never reads the package.
 */
import type { Disposable } from '../../core/lifetime.js';
import { findProgram } from '../../state/process/find-program.js';
import { hostSocat } from './host-socat.js';
import type { NetworkProxy, NetworkProxyOptions, StartNetworkProxy } from './network-types.js';

/** Where the bridge listens inside the sandbox (its own network namespace: no clash with the host's 3128). */
const BRIDGE_PORT = 3128;

/**
 * How many times the bridge looks for its listening socket, SETTLE_SLEEP apart, before it gives
 * up with a line on the terminal: socat listens within milliseconds; 300 × 10 ms (plus the
 * sleeps' own start) is seconds on a loaded machine.
 */
const BRIDGE_WAIT_TRIES = 300;
const BRIDGE_SLEEP = '0.01';

/** srt takes any user name with its token; `srt` is what its own wraps start with (it appends a command tag we do not need). */
const PROXY_USER = 'srt';

/**
 * The bridge: a POSIX sh script (dash has no /dev/tcp, so readiness is read off /proc/net/tcp,
 * which with `--proc /proc` is the sandbox's own namespace; no probe connection reaches the
 * proxy) run as `sh -c SCRIPT SOCAT SOCKET PROGRAM ARGS...`. socat runs in the background with no
 * terminal output (its complaints would land on the agent's screen); a non-interactive shell
 * starts it with SIGINT ignored, so Ctrl-C reaches the program only. Then the program replaces
 * the shell, with its arguments exactly as given.
 */
const BRIDGE_SCRIPT = [
  'socat=$1; sock=$2; shift 2',
  `"$socat" TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,reuseaddr "UNIX-CONNECT:$sock" </dev/null >/dev/null 2>&1 &`,
  'bridge=$!',
  // 0100007F:0C38 is 127.0.0.1:3128 as /proc/net/tcp writes it; state 0A is LISTEN.
  `listening() { while read -r _ local _ state _; do [ "$local" = "${procNetTcpAddress(BRIDGE_PORT)}" ] && [ "$state" = 0A ] && return 0; done </proc/net/tcp; return 1; }`,
  'tries=0',
  'until listening; do',
  `  tries=$((tries + 1))`,
  `  if [ "$tries" -gt ${BRIDGE_WAIT_TRIES} ] || ! kill -0 "$bridge" 2>/dev/null; then echo "agent-board: the sandbox's network bridge (socat) did not start" >&2; exit 126; fi`,
  `  sleep ${BRIDGE_SLEEP}`,
  'done',
  'exec "$@"',
].join('\n');

/** 127.0.0.1:port as the kernel lists it in /proc/net/tcp (little-endian address, big-endian port, hex). */
function procNetTcpAddress(port: number): string {
  return `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The sandbox's proxy variables: every spelling programs read, and nothing exempt (a mock on 127.0.0.1:PORT goes through the proxy too). */
function proxyEnv(token: string): Record<string, string> {
  const url = `http://${PROXY_USER}:${token}@127.0.0.1:${BRIDGE_PORT}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: '',
    no_proxy: '',
  };
}

/** `host:port` of a `deny network-outbound host:port (reason)` line of srt's violation store (host may be IPv6: the last colon splits). */
const DENY_LINE = /^deny network-outbound (.+):(\d+) \((.*)\)$/;
/** The reason srt gives for a refusal our ask callback made (those are reported there, with structure). */
const ASKED_REASON = 'user denied';

type Srt = typeof import('@anthropic-ai/sandbox-runtime');

/**
 * Starts srt's proxy for `o.allowHosts`; rejects (with srt's words) when it cannot. srt is a
 * process-wide singleton: one proxy per process, which is one per runner. The promise settles
 * once the proxy listens on its socket.
 */
export const startNetworkProxy: StartNetworkProxy = async (o: NetworkProxyOptions): Promise<NetworkProxy> => {
  const socat = findProgram('socat');
  if (!socat) throw new Error('socat is not installed (it carries the proxy into the sandbox; apt-get install socat)');
  const bwrap = findProgram('bwrap');
  const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
  const hostSide = hostSocat(socat);
  const logged = new Set<string>();
  /** Each refusal to onDenied; the first of each host:port to the log too (the record counts the rest). */
  const refused = (host: string, port: number, why: string) => {
    if (!logged.has(`${host}:${port}`)) {
      logged.add(`${host}:${port}`);
      o.log(`network proxy: refused ${host}:${port} (${why}); its next refusals are only counted`);
    }
    o.onDenied(host, port);
  };
  const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  let stopReporting: Disposable | null = null;
  try {
    await SandboxManager.initialize(
      {
        network: { allowedDomains: [...o.allowHosts], deniedDomains: [] },
        // Not used: the filesystem half is our own bwrap argv. srt requires the lists.
        filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
        ...(bwrap ? { bwrapPath: bwrap } : {}),
        socatPath: hostSide.program,
        // srt refuses to start without ripgrep, which only its wrap runs (to find the files it
        // protects under a command's folder); we never call the wrap, so its check is pointed at a
        // program we need anyway, and a machine without ripgrep still gets a proxy.
        ripgrep: { command: socat },
      },
      ({ host, port }) => {
        // Its proxies always know the port (the type allows none): 0 would say "unknown".
        refused(host, port ?? 0, 'not on the list');
        return Promise.resolve(false);
      },
    );
    if (!(await SandboxManager.waitForNetworkInitialization())) throw new Error('the proxy did not start');
    const socketPath = SandboxManager.getLinuxHttpSocketPath();
    const token = SandboxManager.getProxyAuthToken();
    if (!socketPath || !token) throw new Error('the proxy started without a Unix socket or a token');
    stopReporting = reportOtherRefusals(SandboxManager, refused);
    o.log(`network proxy: listening on ${socketPath}, allowing ${o.allowHosts.join(' ') || 'nothing'}`);
    let disposed = false;
    return {
      socketPath,
      env: proxyEnv(token),
      bridge: ['/bin/sh', '-c', BRIDGE_SCRIPT, 'agent-board-bridge', socat, socketPath],
      dispose() {
        if (disposed) return;
        disposed = true;
        stopReporting?.dispose();
        hostSide.dispose();
        // reset() stops the proxy servers and srt's own socat child and removes the socket.
        SandboxManager.reset().then(
          () => o.log('network proxy: stopped'),
          (e: unknown) => o.log(`network proxy: stopping it failed: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
    };
  } catch (e) {
    stopReporting?.dispose();
    hostSide.dispose();
    // What it started before it failed (a proxy server, its socat) is stopped; the error is the one reported.
    await SandboxManager.reset().catch((r: unknown) => o.log(`network proxy: stopping what it started failed: ${r instanceof Error ? r.message : String(r)}`));
    throw new Error(`cannot start the sandbox's network proxy: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  } finally {
    dropNewSignalListeners(signalListeners);
  }
};

/**
 * srt's first initialize adds SIGINT and SIGTERM listeners that stop the proxy; a listener takes
 * Node's default away (SIGINT would no longer end the runner) and the runner has its own way out
 * (main.ts), which disposes the proxy. So the ones srt added are removed; its 'exit' one, which
 * only removes the socket, stays.
 */
function dropNewSignalListeners(before: Record<'SIGINT' | 'SIGTERM', readonly NodeJS.SignalsListener[]>): void {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(sig)) if (!before[sig].includes(l)) process.removeListener(sig, l);
  }
}

/**
 * Refusals the ask callback never sees: an allowed name that resolved to a denied address
 * (loopback, link-local, this host's own) is refused by srt's resolved-address check and only
 * written to its violation store as a line. Those lines are read here and reported the same way.
 */
function reportOtherRefusals(srt: Srt['SandboxManager'], refused: (host: string, port: number, why: string) => void): Disposable {
  const store = srt.getSandboxViolationStore();
  let seen = store.getTotalCount();
  // subscribe() calls at once with the list as it is: only what came after counts.
  const unsubscribe = store.subscribe(() => {
    const total = store.getTotalCount();
    if (total === seen) return;
    const fresh = store.getViolations(total - seen);
    seen = total;
    for (const v of fresh) {
      const [, host, port, reason] = DENY_LINE.exec(v.line) ?? [];
      if (host === undefined || port === undefined || reason === undefined || reason === ASKED_REASON) continue;
      refused(host, Number(port), reason);
    }
  });
  return { dispose: unsubscribe };
}
