// Runs inside the benchmark sessions of (c): prints LINES colourful lines, each
// with a token (R<digits joined by x>R, no two equal characters side by side,
// so no terminal encoding can shorten it), then stays idle.
const LINES = Number(process.argv[2] || 6000);
const words = ['session', 'runner', 'snapshot', 'scrollback', 'cursor', 'frame', 'socket', 'render', 'parse', 'attach'];
const token = (i) => `R${String(i).split('').join('x')}R`;
let out = '';
for (let i = 1; i <= LINES; i++) {
  const w = (k) => words[(i * 7 + k * 3) % words.length];
  out += `\x1b[3${(i % 7) + 1}m${w(1)} ${w(2)}\x1b[0m ${token(i)} \x1b[1;4${(i % 6) + 1}m${w(3)}\x1b[0m ${w(4)} ${w(5)} \x1b[38;5;${i % 256}m${'#'.repeat(i % 40)}\x1b[0m\n`;
}
process.stdout.write(out + 'FINISHED' + '-OK', () => setInterval(() => {}, 1 << 30));
