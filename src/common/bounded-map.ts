/**
 * A Map that keeps at most `limit` entries: setting a new key when it is full forgets the entry inserted
 * first. For what an instance keeps in memory of what it has read (callers, verified tokens, an order's
 * customer), so that a flood of distinct keys cannot grow it without bound.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
