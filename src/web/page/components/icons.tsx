/** The few icons the page draws, as inline SVG: an emoji font is not on every machine (a bell showed as a box in headless chromium). */

const svg = (path: string) =>
  function Icon() {
    return (
      <svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
        <path d={path} />
      </svg>
    );
  };

export const BellIcon = svg('M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0');
export const BellOffIcon = svg('M8.7 3A6 6 0 0 1 18 8a21.3 21.3 0 0 0 .6 5M17 17H3s3-2 3-9a4.67 4.67 0 0 1 .3-1.7M10.3 21a1.94 1.94 0 0 0 3.4 0M2 2l20 20');
export const LockIcon = svg('M5 11h14v10H5zM8 11V7a4 4 0 0 1 8 0v4');
export const UnlockIcon = svg('M5 11h14v10H5zM8 11V7a4 4 0 0 1 7.9-1');
