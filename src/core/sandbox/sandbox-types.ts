/**
 * A sandboxed session's setting (`new --sandbox`, docs/sandbox.md), as host.json keeps it, and the
 * connections its network proxy refused. fork, restart and revive keep the setting as it is.
 */

/** `bwrap`: an OS sandbox made with bubblewrap (Linux); `container`: podman or docker. */
export type SandboxBackend = 'bwrap' | 'container';

/** `all`: the host's network as it is; `allowlist`: only the listed hosts, through a proxy; `none`: no network. */
export type SandboxNetwork = 'all' | 'allowlist' | 'none';

export const SANDBOX_NETWORKS: readonly SandboxNetwork[] = ['all', 'allowlist', 'none'];

export interface SandboxSetting {
  backend: SandboxBackend;
  /** The container backend's image (`--sandbox container:IMAGE`); absent: the repository's devcontainer.json picks it. */
  image?: string;
  network: SandboxNetwork;
  /** Hosts this session may reach beyond its kind's list and config.json's (`--allow-host`): `host`, `*.domain` or `host:port`. */
  allowHosts?: string[];
  /** Paths this session may not read beyond the default deny list and config.json's (`--deny-read`), absolute. */
  denyRead?: string[];
}

/** A connection the proxy refused: the host and port the program tried, how often, first and last (ISO). */
export interface SandboxDenial {
  host: string;
  port: number;
  count: number;
  first: string;
  last: string;
}

/** How many distinct refused hosts a record keeps (the most recent). */
export const SANDBOX_DENIALS_KEPT = 20;

/** Set to `1` in a sandboxed program's environment: its own agent-board commands then know they see only their session. */
export const SANDBOXED_ENV = 'AGENT_BOARD_SANDBOXED';
