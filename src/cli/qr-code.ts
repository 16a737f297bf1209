/**
 * A QR code as terminal text (`web pair`). Its own module, loaded by import() only when a code is
 * printed: qrcode is CommonJS, and the bundle's lazy chunks re-export an ES module's names only
 * (scripts/bundle.mjs), so the package is imported statically here, behind our module.
 */
import qrcode from 'qrcode';

/**
 * `text` as a QR code in half blocks, two rows of modules a line. On a terminal, black on white
 * whatever its colours (a scanner wants dark modules on light); in a pipe or a file, the blocks
 * alone (dark modules as blocks, for a light page).
 */
export function qrText(text: string, terminal: boolean): Promise<string> {
  return terminal ? qrcode.toString(text, { type: 'terminal', small: true, errorCorrectionLevel: 'L' }) : qrcode.toString(text, { type: 'utf8', errorCorrectionLevel: 'L' });
}
