/**
 * An object's keys in the order Go's encoding/json writes a map's: sorted by their UTF-8 bytes. A patch's
 * result is such a map, re-marshalled by the patcher, so its decoder meets its members in this order.
 */
export function goMapKeys(obj: Record<string, unknown>): string[] {
  // Each key's UTF-8 bytes once, not per comparison.
  return Object.keys(obj).map((k) => [k, Buffer.from(k)] as const).sort((a, b) => Buffer.compare(a[1], b[1])).map(([k]) => k);
}

/**
 * `value` with every object's members in Go's map order, at every depth (what encoding/json writes of a
 * `map[string]interface{}`). Iterative; objects are replaced by sorted copies, arrays changed in place.
 */
export function inGoMapOrder(value: unknown): unknown {
  const root: { v: unknown } = { v: value };
  const stack: [Record<string | number, unknown>, string | number][] = [[root, 'v']];
  while (stack.length > 0) {
    const [holder, key] = stack.pop()!;
    const v = holder[key];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v as unknown as Record<number, unknown>, i]);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const sorted: Record<string, unknown> = {};
      for (const k of goMapKeys(o)) Object.defineProperty(sorted, k, { value: o[k], enumerable: true, writable: true, configurable: true });
      holder[key] = sorted;
      for (const k of Object.keys(sorted)) stack.push([sorted, k]);
    }
  }
  return root.v;
}

/** Puts `obj`'s own members in Go's map order, in place (its nested objects keep theirs). */
export function sortMembersInPlace(obj: Record<string, unknown>): void {
  const keys = goMapKeys(obj);
  const values = keys.map((k) => obj[k]);
  for (const k of keys) delete obj[k];
  keys.forEach((k, i) => Object.defineProperty(obj, k, { value: values[i], enumerable: true, writable: true, configurable: true }));
}
