/**
 * An object's keys in the order Go's encoding/json writes a map's: sorted by their UTF-8 bytes. A patch's
 * result is such a map, re-marshalled by the patcher, so its decoder meets its members in this order.
 */
export function goMapKeys(obj: Record<string, unknown>): string[] {
  // Each key's UTF-8 bytes once, not per comparison.
  return Object.keys(obj).map((k) => [k, Buffer.from(k)] as const).sort((a, b) => Buffer.compare(a[1], b[1])).map(([k]) => k);
}
