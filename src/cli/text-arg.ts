import { EXIT, UserError } from '../state/errors.js';

/**
 * The text a command was given: its words joined, or standard input for a
 * lone `-` (less one trailing newline, which echo and heredocs add: Enter,
 * where there is one, is sent on its own). `blank(text)` says when there is
 * nothing; then one line says how to give it, for `verb` ("post", "send").
 */
export async function textArgument(words: string[], verb: string, blank: (text: string) => boolean): Promise<string> {
  if (words.length === 1 && words[0] === '-') {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }
  const text = words.join(' ');
  if (blank(text)) throw new UserError(`nothing to ${verb}: give the text, or - to read it from standard input`, EXIT.usage);
  return text;
}
