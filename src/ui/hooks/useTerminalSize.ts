/** The size of the terminal the board draws in, following resizes. */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** The size of the terminal Ink draws in (its stdout, from context), following resizes. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ cols: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
