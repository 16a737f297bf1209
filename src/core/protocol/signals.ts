/** A signal as a user or a client spells it ("term", "SIGTERM", "Kill") in the one form the runner sends: "SIGTERM". */
export const normalizeSignal = (sig: string): string => sig.toUpperCase().replace(/^(SIG)?/, 'SIG');
