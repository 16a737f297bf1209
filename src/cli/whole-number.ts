import { EXIT, UserError } from '../state/errors.js';

/** A count on the command line (`--scrollback 500`): a whole number, or a usage error that says so. */
export function wholeNumber(text: string, option: string): number {
  if (!/^\d{1,9}$/.test(text)) throw new UserError(`${option} must be a whole number, not "${text}"`, EXIT.usage);
  return Number(text);
}
