import { ensureHome } from '../state/home.js';

/** What every command needs: the checked home. Made once, on first use. */
let home: string | null = null;
export function getHome(): string {
  home ??= ensureHome();
  return home;
}
