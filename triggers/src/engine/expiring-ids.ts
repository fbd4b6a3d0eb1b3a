/**
 * Ids remembered for `ttlMs` after they were added (oldest forgotten first past `maxEntries`), e.g. the
 * ids of acked messages that stay taken for an idempotency TTL.
 */
export class ExpiringIds {
  /** id → epoch ms it was added, in insertion order. */
  private readonly added = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 100_000,
  ) {}

  add(id: string): void {
    if (this.ttlMs <= 0) return;
    this.added.delete(id);
    this.added.set(id, this.now());
    this.prune();
  }

  has(id: string): boolean {
    const at = this.added.get(id);
    if (at === undefined) return false;
    if (at + this.ttlMs > this.now()) return true;
    this.added.delete(id);
    return false;
  }

  /** Forgets ids added at or before `before` (epoch ms), at most `limit`; returns them. */
  removeBefore(before: number, limit: number): string[] {
    const removed: string[] = [];
    for (const [id, at] of this.added) {
      if (removed.length >= limit || at > before) break;
      this.added.delete(id);
      removed.push(id);
    }
    return removed;
  }

  private prune(): void {
    const horizon = this.now() - this.ttlMs;
    for (const [id, at] of this.added) {
      if (at > horizon && this.added.size <= this.maxEntries) break;
      this.added.delete(id);
    }
  }
}
