/**
 * Texts drawn through ./ascii-shape.ts: Ink measures them as ASCII on every frame, and the
 * real characters go back in when it writes the frame. A text that cannot be shaped is drawn as
 * a plain <Text>, as it always was.
 */
import { Text, Transform } from 'ink';
import { asciiShape, unshape } from './ascii-shape.js';

/** One styled piece of a run. */
export interface RunPart {
  text: string;
  color?: string;
  bold?: boolean;
  dimColor?: boolean;
}

const styled = (p: RunPart) => p.color || p.bold || p.dimColor;

/**
 * A run of styled pieces. Shaped only when it fits where it is drawn (`fits`, by default: a row's
 * marker, mark and glyph, a box that does not shrink): Ink wraps a <Transform>'s text when it
 * does not fit, so a run that may be cut is drawn as a plain <Text wrap={wrap}> when it would be.
 */
export function ShapedRun({ parts, fits = true, wrap }: { parts: readonly RunPart[]; fits?: boolean; wrap?: 'truncate-end' }) {
  const shapes = parts.map((p) => asciiShape(p.text));
  const real = parts.map((p) => p.text).join('');
  if (!fits || shapes.every((s, i) => s === parts[i]!.text) || shapes.some((s) => s === null)) {
    return (
      <Text wrap={wrap}>
        {parts.map((p, i) => (styled(p) ? <Text key={i} color={p.color} bold={p.bold} dimColor={p.dimColor}>{p.text}</Text> : p.text))}
      </Text>
    );
  }
  return (
    <Transform transform={(line) => unshape(line, real)}>
      {parts.map((p, i) => (styled(p) ? <Text key={i} color={p.color} bold={p.bold} dimColor={p.dimColor}>{shapes[i]}</Text> : shapes[i]))}
    </Transform>
  );
}

/** A line of plain text in a column `width` cells wide, cut by Ink (truncate-end) only when it does not fit. */
export function ShapedLine({ line, width }: { line: string; width: number }) {
  const shape = asciiShape(line);
  if (shape === null || shape === line || shape.length > width) return <Text wrap="truncate-end">{line}</Text>;
  return <Transform transform={() => line}>{shape}</Transform>;
}
