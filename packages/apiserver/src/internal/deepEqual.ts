const isUndefined = (v: unknown): boolean => v === undefined;

/**
 * Structural equality of JSON values, independent of key order (Go's `reflect.DeepEqual` on unstructured
 * JSON: a `null` member is not a missing one; {@link semanticEqual} is the typed objects' equality).
 * Members whose value is `undefined` count as absent; a `bigint` equals the number of the same integer.
 * Iterative: objects nested 10,000 levels deep (the apiserver's limit) compare without touching the stack.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  return equalUnder(a, b, isUndefined);
}

/** A member Go holds as nil, or as an empty slice, which Semantic.DeepEqual takes for nil. */
function goNil(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/**
 * Go's `equality.Semantic.DeepEqual` on two built-in objects as kubekit holds them (decoded as their Go
 * types write them, or read back from storage): {@link deepEqual}, except that a member that is absent,
 * `null` or an empty list counts as absent on either side. Go holds all three as a nil (or empty) slice,
 * map or pointer, which compare equal; storage writes such a field `null` where the request that updates
 * it leaves it out (a projected volume's `sources`, a data source's `apiGroup`). An empty object stays
 * unequal to none (a pointer to an empty struct is not nil). Not for custom resources, whose
 * unstructured maps tell a `null` member from a missing one.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return equalUnder(a, b, goNil);
}

/** Structural equality where values `absent` holds of are as good as missing (members) or as each other. */
function equalUnder(a: unknown, b: unknown, absent: (v: unknown) => boolean): boolean {
  if (a === b || (absent(a) && absent(b))) return true;
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y || (absent(x) && absent(y))) continue;
    if (typeof x !== typeof y || x === null || y === null || typeof x !== 'object') {
      if ((typeof x === 'bigint' || typeof y === 'bigint') && typeof x !== 'object' && typeof y !== 'object' && String(x) === String(y)) continue;
      return false;
    }
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    let xCount = 0;
    for (const k of Object.keys(xo)) {
      if (absent(xo[k])) continue;
      xCount++;
      const w = Object.hasOwn(yo, k) ? yo[k] : undefined;
      if (absent(w)) return false;
      stack.push(xo[k], w);
    }
    let yCount = 0;
    for (const k of Object.keys(yo)) if (!absent(yo[k])) yCount++;
    if (xCount !== yCount) return false;
  }
  return true;
}
