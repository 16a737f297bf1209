/**
 * Debian's chromium, driven by playwright-core (never a downloaded browser): the browser tests'
 * one way to start it. Where /usr/bin/chromium is missing (CI could not install it), `browserSkip`
 * says why, and the suites say NOT RUN loudly instead of failing (test/web).
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

/** Why the browser tests cannot run here, or null. */
export const browserSkip: string | null = fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (apt-get install chromium)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** A phone: the size of an iPhone 14 (390x844 CSS pixels), touch, mobile viewport. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } as const;
export const DESKTOP = { viewport: { width: 1280, height: 800 } } as const;

/** Says NOT RUN once, loudly, when the browser tests cannot run. */
export function sayIfNotRun(suite: string): void {
  if (!browserSkip) return;
  const bar = '#'.repeat(80);
  console.error(`\n${bar}\n!! ${suite}: NOT RUN: ${browserSkip}\n${bar}\n`);
}

export type { Browser, BrowserContext };
