// Builds the web page (src/web/page) into dist/bundle/web/, which the web server serves as a fixed
// list of files (docs/web.md). Called by scripts/bundle.mjs at the end of `npm run build`.
//
//   node scripts/bundle-web.mjs        build dist/bundle/web/
//
// - app.js: the page (Preact, @xterm/xterm and its fit addon, our code), one minified script, no
//   module loader and no eval: the server's Content-Security-Policy allows script from 'self' only.
// - app.css: xterm's stylesheet and ours (src/web/page/style.css).
// - sw.js: the service worker (src/web/page/sw/sw.ts): the installable app and its notifications.
// - index.html, manifest.webmanifest, icon.svg: copied from src/web/page/static/.
// - icon-192.png, icon-512.png: the icon drawn here (the same shapes as icon.svg), since a phone's
//   home screen and its notifications take PNG; no image library, a few shapes and node's zlib.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = path.join(ROOT, 'src', 'web', 'page');
const OUT = path.join(ROOT, 'dist', 'bundle', 'web');

const browser = {
  bundle: true,
  platform: 'browser',
  // What a phone two years old runs (Safari 16 on iOS 16 and later, Chrome's).
  target: ['es2022', 'safari16', 'chrome110', 'firefox110'],
  format: 'iife',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT, { recursive: true });

// The page is ES modules split in two: app.js (the list, Preact, our code) and the chunk with
// xterm.js that a session's view imports when it is first needed (src/web/page/components/
// xterm-lib.ts): the list parses a sixth of the script. Chunk names carry their content's hash
// (the server lists them at start: src/web/server/http/static-files.ts).
const page = await build({
  ...browser,
  format: 'esm',
  splitting: true,
  entryPoints: { app: path.join(PAGE, 'main.tsx') },
  outdir: OUT,
  chunkNames: 'chunk-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  tsconfig: path.join(PAGE, 'tsconfig.json'),
});
await build({ ...browser, entryPoints: [path.join(PAGE, 'sw', 'sw.ts')], outfile: path.join(OUT, 'sw.js'), tsconfig: path.join(PAGE, 'sw', 'tsconfig.json') });
// Beside the bundles, not among them: what went into app.js, for measuring it (bench, the report).
fs.writeFileSync(path.join(ROOT, 'dist', 'bundle-web-meta.json'), JSON.stringify(page.metafile));

const xtermCss = fs.readFileSync(path.join(ROOT, 'node_modules', '@xterm', 'xterm', 'css', 'xterm.css'), 'utf8');
const ourCss = fs.readFileSync(path.join(PAGE, 'style.css'), 'utf8');
fs.writeFileSync(path.join(OUT, 'app.css'), `${xtermCss}\n${ourCss}`);

for (const f of ['index.html', 'manifest.webmanifest', 'icon.svg']) fs.copyFileSync(path.join(PAGE, 'static', f), path.join(OUT, f));

// ---- the PNG icons -------------------------------------------------------------------------

/** icon.svg's shapes on its 64-unit square: [kind, ...geometry, colour]. */
const SHAPES = [
  ['round', 0, 0, 64, 64, 14, '#14181d'],
  ['circle', 17, 20, 5, '#e5c07b'],
  ['round', 26, 17, 26, 6, 3, '#abb2bf'],
  ['circle', 17, 32, 5, '#98c379'],
  ['round', 26, 29, 20, 6, 3, '#abb2bf'],
  ['diamond', 17, 44, 7.07, '#ff79f0'],
  ['round', 26, 41, 24, 6, 3, '#ff79f0'],
];

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Whether the point (x, y), in the SVG's units, is inside a shape. */
function inside(s, x, y) {
  switch (s[0]) {
    case 'circle':
      return (x - s[1]) ** 2 + (y - s[2]) ** 2 <= s[3] ** 2;
    case 'diamond':
      return Math.abs(x - s[1]) + Math.abs(y - s[2]) <= s[3];
    case 'round': {
      const [, rx, ry, w, h, r] = s;
      const dx = Math.max(rx + r - x, 0, x - (rx + w - r));
      const dy = Math.max(ry + r - y, 0, y - (ry + h - r));
      return x >= rx && x <= rx + w && y >= ry && y <= ry + h && dx * dx + dy * dy <= r * r;
    }
    default:
      throw new Error(`unknown shape ${s[0]}`);
  }
}

/** The icon as RGBA pixels, each the mean of 4x4 samples (smooth edges). */
function draw(size) {
  const px = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let qx = 0; qx < size; qx++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = ((qx + (sx + 0.5) / n) * 64) / size;
          const y = ((py + (sy + 0.5) / n) * 64) / size;
          let c = null;
          for (const s of SHAPES) if (inside(s, x, y)) c = s[s.length - 1];
          if (c === null) continue;
          const [r, g, b] = rgb(c);
          acc[0] += r;
          acc[1] += g;
          acc[2] += b;
          acc[3] += 255;
        }
      }
      const o = (py * size + qx) * 4;
      const a = acc[3] / (n * n);
      // Colour averaged over the covered samples only; coverage is the alpha.
      const cov = acc[3] / 255;
      px[o] = cov ? Math.round(acc[0] / cov) : 0;
      px[o + 1] = cov ? Math.round(acc[1] / cov) : 0;
      px[o + 2] = cov ? Math.round(acc[2] / cov) : 0;
      px[o + 3] = Math.round(a);
    }
  }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size) {
  const px = draw(size);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) px.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
for (const size of [192, 512]) fs.writeFileSync(path.join(OUT, `icon-${size}.png`), png(size));
