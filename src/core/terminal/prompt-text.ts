/**
 * How a prompt's text goes into a program: several lines go in as one
 * bracketed paste when the program asked for them (mode 2004), so a newline
 * inside the prompt does not submit it half-typed; one line goes in as typed.
 */

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

export function promptBytes(text: string, bracketedPaste: boolean): string {
  const multiLine = text.includes('\n') || text.includes('\r');
  // A paste-end inside the text would end the paste early and type the rest as keys.
  if (multiLine && bracketedPaste) return PASTE_START + text.split(PASTE_END).join('') + PASTE_END;
  return text;
}

/** What submits a prompt: the Enter key. */
export const ENTER = '\r';
