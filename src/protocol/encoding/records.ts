/**
 * Safe lookups in name-keyed records. Seat and owner names are attacker-chosen and may be
 * "constructor" or "toString", which `in` and plain indexing find on Object.prototype; these
 * helpers see own properties only.
 */

/** Whether `record` has its own property `key`. */
export function has(record: object, key: string): boolean {
  return Object.hasOwn(record, key);
}

/** `record[key]` if it is an own property, else undefined. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
