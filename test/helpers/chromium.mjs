// Debian's chromium as the tests, the bench (bench/web-browser.mjs) and the page's screenshot
// script start it, through playwright-core (never a downloaded browser): one list of flags.
// As root it needs --no-sandbox; without the background-networking flags it keeps trying
// Google's hosts on this closed network, many connections at a time.
export const CHROMIUM = process.env.AGENT_BOARD_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
