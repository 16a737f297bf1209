/** Types of ./chromium.mjs (plain JS, so the bench and the screenshot script can import it too). */
export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: string[];
