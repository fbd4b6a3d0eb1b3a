/**
 * A `Map` that forgets its oldest entries beyond a size.
 * @internal
 * @module
 */

/** Insertion-ordered map holding at most `maxSize` entries; adding a new key past that drops the oldest. */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly maxSize: number;
  constructor(maxSize: number) {
    super();
    this.maxSize = maxSize;
  }
  override set(key: K, value: V): this {
    if (!this.has(key)) {
      for (const oldest of this.keys()) {
        if (this.size < this.maxSize) break;
        this.delete(oldest);
      }
    }
    return super.set(key, value);
  }
}
