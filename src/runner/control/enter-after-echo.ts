/**
 * When a prompt's Enter may go to a kind whose Enter waits for the echo (the kind's
 * enterAfterEcho: Codex, Gemini). Such a TUI tells a paste by timing (Gemini takes an Enter it
 * handles within 30 ms of the key before as a newline), so the Enter must come well after the
 * program has handled the text, whenever that is: a program starved of CPU, or busy starting,
 * reads keys late. Any output after the text is not that: such a program draws other things
 * meanwhile (its start, a spinner), and took the text and the Enter in one go, 1 prompt in 8 on a
 * loaded 2-core machine. The echo is the text itself on the screen.
 */

/** The Enter goes this long after the text's echo was seen: twice the 30 ms in which Gemini takes an Enter for pasted. */
export const ENTER_AFTER_ECHO_MS = 60;

/** How much of the end of a one-line prompt must be on the screen: short, so a wrapped line seldom splits it. */
const ECHO_TAIL_CHARS = 8;

/**
 * What of `text` its echo shows: the end of a one-line prompt. Null for one whose echo cannot be
 * told by its text (several lines, which go in as a paste a TUI may draw as a summary; blanks):
 * then any output after it is taken for its echo.
 */
export function echoTail(text: string): string | null {
  if (/[\r\n]/.test(text)) return null;
  const tail = text.trimEnd().slice(-ECHO_TAIL_CHARS).trimStart();
  return tail || null;
}
