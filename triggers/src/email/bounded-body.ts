/**
 * A message body collected up to a byte limit. Once more than `limit` bytes
 * have arrived, what was kept is dropped and every later chunk is only
 * counted, so an oversized message never costs more than `limit` bytes of
 * memory however long the sender keeps streaming.
 */
export class BoundedBody {
  #chunks: Buffer[] = [];
  #held = 0;
  #received = 0;

  /** @param limit the largest body kept, in bytes. */
  constructor(readonly limit: number) {}

  /** Adds one chunk: kept while the total stays within `limit`, counted and dropped past it. */
  push(chunk: Buffer): void {
    this.#received += chunk.length;
    if (this.#received > this.limit) {
      this.#chunks = [];
      this.#held = 0;
      return;
    }
    this.#chunks.push(chunk);
    this.#held += chunk.length;
  }

  /** Bytes received so far, kept or not. */
  get received(): number {
    return this.#received;
  }

  /** Bytes currently kept in memory (never more than `limit`). */
  get held(): number {
    return this.#held;
  }

  /** Whether more than `limit` bytes arrived. */
  get exceeded(): boolean {
    return this.#received > this.limit;
  }

  /** The whole body as one buffer; only meaningful when not `exceeded`. */
  concat(): Buffer {
    return Buffer.concat(this.#chunks, this.#held);
  }
}
