/** A one-line text field of the board's forms. */
import { Text } from 'ink';
import { textWidth } from '../text-width.js';

export interface TextFieldProps {
  value: string;
  focused: boolean;
  /** Cells the field may take; a longer value shows its end. */
  width: number;
}

/** A one-line text field; the cursor (a block) sits at the end when it has the focus. */
export function TextField({ value, focused, width }: TextFieldProps) {
  const room = Math.max(1, width - 1);
  let shown = value;
  while (textWidth(shown) > room) shown = Array.from(shown).slice(1).join('');
  return (
    <Text>
      <Text underline={!focused}>{shown}</Text>
      {focused ? <Text inverse> </Text> : null}
    </Text>
  );
}
