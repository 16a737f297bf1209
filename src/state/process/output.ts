/** What is kept of a child's output stream: its text, up to a bound, from its start or its end. */

/**
 * What a run keeps of each stream unless told: far more than any answer we read (a version
 * line, a session list, git's plumbing), and a bound on a program that prints without end.
 */
export const OUTPUT_LIMIT = 16 * 1024 * 1024;

export interface OutputKeep {
  /** Characters kept (OUTPUT_LIMIT unless given). */
  limit?: number;
  /** `start` (the default): the first `limit`; `end`: the last, where the last line says why it failed. */
  keep?: 'start' | 'end';
}

export class Output {
  private text = '';
  /** Some of the output was dropped to stay within the limit. */
  truncated = false;
  private readonly limit: number;
  private readonly keepEnd: boolean;

  constructor(o: OutputKeep = {}) {
    this.limit = o.limit ?? OUTPUT_LIMIT;
    this.keepEnd = o.keep === 'end';
  }

  add(chunk: string): void {
    if (!this.keepEnd && this.text.length >= this.limit) {
      this.truncated = true;
      return;
    }
    const text = this.text + chunk;
    if (text.length <= this.limit) {
      this.text = text;
      return;
    }
    this.truncated = true;
    this.text = this.keepEnd ? text.slice(-this.limit) : text.slice(0, this.limit);
  }

  toString(): string {
    return this.text;
  }
}
