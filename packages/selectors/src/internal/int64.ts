const decimal = /^[+-]?[0-9]+$/;
const minInt64 = -(2n ** 63n);
const maxInt64 = 2n ** 63n - 1n;

/**
 * Go's `strconv.ParseInt(s, 10, 64)`: the value, or `undefined` where Go returns an error (not a
 * base-10 integer with an optional sign, or outside the int64 range). Values up to 15 digits come
 * back as exact `number`s (the common case, and cheap); longer ones as `bigint`. JavaScript compares
 * a `number` with a `bigint` exactly, so callers may mix them.
 */
export function parseInt64(s: string): number | bigint | undefined {
  if (!decimal.test(s)) return undefined;
  const digits = s.charCodeAt(0) === 0x2b || s.charCodeAt(0) === 0x2d ? s.length - 1 : s.length;
  if (digits <= 15) return Number(s);
  const v = BigInt(s);
  return v < minInt64 || v > maxInt64 ? undefined : v;
}
