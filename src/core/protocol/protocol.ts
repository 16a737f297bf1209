/**
 * Protocol v1: newline-delimited JSON between clients and a session's runner (runner -> client
 * frames may switch to binary1 after the hello: binary-framing.ts). Its bounds here; the shapes
 * are in host-record.ts (the session's record), client-messages.ts and runner-messages.ts.
 * See docs/protocol.md for the conversation and its guarantees.
 */

export const PROTOCOL_VERSION = 1;

/** A frame longer than this is refused: it would pin memory in every peer. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Terminal sizes a client may ask for; anything outside is clamped. */
export const MIN_COLS = 2;
export const MAX_COLS = 1000;
export const MIN_ROWS = 1;
export const MAX_ROWS = 500;
