/**
 * A QR code as terminal text (`web pair`). Its own module, loaded by import() only when a code is
 * printed: qrcode is CommonJS, and the bundle's lazy chunks re-export an ES module's names only
 * (scripts/bundle.mjs), so the package is imported statically here, behind our module.
 */
import qrcode from 'qrcode';

/** `text` as a QR code in Unicode half blocks, two rows of modules a line. */
export function qrText(text: string): Promise<string> {
  return qrcode.toString(text, { type: 'utf8', errorCorrectionLevel: 'L' });
}
