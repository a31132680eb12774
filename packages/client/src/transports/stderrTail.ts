/** The last `limit` bytes of a stream, for error messages that quote what a process said. */
export class StderrTail {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  /** Keeps `chunk`, dropping the oldest bytes past the limit. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
    if (this.size > this.limit) {
      const only = this.chunks[0]!;
      this.chunks = [only.subarray(only.length - this.limit)];
      this.size = this.limit;
    }
  }

  /** The kept bytes as text. */
  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
