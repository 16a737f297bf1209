/**
 * Texts drawn through src/ui/ascii-shape.ts: Ink measures them as ASCII on every frame, and the
 * real characters go back in when it writes the frame. A text that cannot be shaped is drawn as
 * a plain <Text>, as it always was.
 */
import { Text, Transform } from 'ink';
import { asciiShape, unshape } from '../ascii-shape.js';

/** One styled piece of a run. */
export interface RunPart {
  text: string;
  color?: string;
  bold?: boolean;
}

/**
 * A run of styled pieces that always fits where it is drawn (a row's marker, mark and glyph: a
 * box that does not shrink). Ink wraps a <Transform>'s text when it does not fit, so a text that
 * may be cut (truncate-end) is not one of these.
 */
export function ShapedRun({ parts }: { parts: readonly RunPart[] }) {
  const shapes = parts.map((p) => asciiShape(p.text));
  const real = parts.map((p) => p.text).join('');
  if (shapes.every((s, i) => s === parts[i]!.text) || shapes.some((s) => s === null)) {
    return (
      <Text>
        {parts.map((p, i) => (p.color || p.bold ? <Text key={i} color={p.color} bold={p.bold}>{p.text}</Text> : p.text))}
      </Text>
    );
  }
  return (
    <Transform transform={(line) => unshape(line, real)}>
      {parts.map((p, i) => (p.color || p.bold ? <Text key={i} color={p.color} bold={p.bold}>{shapes[i]}</Text> : shapes[i]))}
    </Transform>
  );
}

/** A line of plain text in a column `width` cells wide, cut by Ink (truncate-end) only when it does not fit. */
export function ShapedLine({ line, width }: { line: string; width: number }) {
  const shape = asciiShape(line);
  if (shape === null || shape === line || shape.length > width) return <Text wrap="truncate-end">{line}</Text>;
  return <Transform transform={() => line}>{shape}</Transform>;
}
