/**
 * A Map that holds at most `limit` entries: setting a new key when full forgets the oldest one. For
 * caches and memories that must not grow with what clients send.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly limit: number) {
    super();
    if (!(limit >= 1)) throw new RangeError(`BoundedMap limit must be at least 1, not ${limit}`);
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
