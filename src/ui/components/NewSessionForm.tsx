/** The new-session form: name, command, working directory. */
import { Box, Text } from 'ink';
import { NEW_FIELDS, type NewFields } from '../../core/board/board-types.js';
import { TextField } from './TextField.js';

const LABELS: Record<keyof NewFields, string> = { name: 'name', command: 'command', cwd: 'directory' };
const HINTS: Record<keyof NewFields, string> = {
  name: 'optional; letters, digits, . _ -',
  command: 'program and arguments, as in a shell',
  cwd: 'working directory',
};

export interface NewSessionFormProps {
  fields: NewFields;
  focus: number;
  pending: boolean;
  error: string | null;
  width: number;
}

/** The new-session form: name, command, working directory. */
export function NewSessionForm({ fields, focus, pending, error, width }: NewSessionFormProps) {
  const fieldWidth = Math.max(10, width - 16);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold>New session</Text>
      {NEW_FIELDS.map((f, i) => (
        <Box key={f} flexDirection="column">
          <Box>
            <Box width={12} flexShrink={0}>
              <Text color={i === focus ? 'cyan' : undefined}>{i === focus ? '›' : ' '} {LABELS[f]}</Text>
            </Box>
            <TextField value={fields[f]} focused={i === focus && !pending} width={fieldWidth} />
          </Box>
          {i === focus ? <Text dimColor>{' '.repeat(12)}{HINTS[f]}</Text> : null}
        </Box>
      ))}
      {pending ? <Text color="yellow">starting…</Text> : null}
      {error ? <Text color="red" wrap="wrap">{error}</Text> : null}
    </Box>
  );
}
