/**
 * Where a session's transcript is: the newest file of its kind for its conversation id. Finds
 * nothing in this branch: issue 31's part 2 writes the real one, which replaces this file.
 */
export function findTranscript(o: { kind: string; resumeId: string; cwd: string; env: Record<string, string | undefined> }): string | null {
  void o;
  return null;
}
