/** The board's footer: the last message, then the key hints that fit. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { Message } from '../../core/board/board-types.js';
import { BINDINGS, type HintWhen, type KeyMode } from '../../core/board/keybindings.js';
import { useCountRender } from '../contexts/RenderCountContext.js';
import { cutWords, textWidth } from '../text-width.js';
import { ShapedRun } from '../ink/ShapedText.js';

export interface FooterProps {
  mode: KeyMode;
  message: Message | null;
  /** Which of the hints that only sometimes apply do now. */
  now?: ReadonlySet<HintWhen>;
  width: number;
}

const GAP = '  ';

/**
 * The hints that fit in `width`: the first one goes first (↑↓ select: the
 * arrows need no telling), then from the end, but the last two (help, quit)
 * stay as long as they fit.
 */
export function fitHints(hints: readonly string[], width: number): string {
  const kept = [...hints];
  const fits = () => textWidth(kept.join(GAP)) <= width;
  if (!fits() && kept.length > 2) kept.shift();
  while (!fits() && kept.length > 2) kept.splice(kept.length - 3, 1);
  return fits() ? kept.join(GAP) : '';
}

/**
 * The last message, if any, then the key hints for what the keyboard talks to now. Memoized (the
 * board hands the same `now` while the hints stay): a session's new line does not draw it again.
 */
export const Footer = memo(function Footer({ mode, message, now, width }: FooterProps) {
  useCountRender('footer');
  const hints = BINDINGS[mode].flatMap((b) => (b.hint && (!b.when || now?.has(b.when)) ? [b.hint] : []));
  const room = message ? width - textWidth(message.text) - GAP.length : width;
  const shown = fitHints(hints, room);
  // Shaped for Ink's measure (the arrows): it fits, unless Ink measures the message otherwise than we do.
  const fits = !message || /^[\x20-\x7e]*$/.test(message.text);
  return (
    <Box height={1} width={width}>
      {message ? (
        <Box flexShrink={1} marginRight={2}>
          <Text color={message.error ? 'red' : 'green'} wrap="truncate-end">{cutWords(message.text, width)}</Text>
        </Box>
      ) : null}
      {shown ? <ShapedRun parts={[{ text: shown, dimColor: true }]} fits={fits} wrap="truncate-end" /> : null}
    </Box>
  );
});
