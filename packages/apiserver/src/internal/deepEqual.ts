/**
 * Structural equality of JSON values, independent of key order (Go's `equality.Semantic.DeepEqual` on
 * decoded JSON). Members whose value is `undefined` count as absent; a `bigint` equals the number of the
 * same integer. Iterative: objects nested 10,000 levels deep (the apiserver's limit) compare without
 * touching the stack.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
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
      if (xo[k] === undefined) continue;
      xCount++;
      if (!Object.hasOwn(yo, k)) return false;
      stack.push(xo[k], yo[k]);
    }
    let yCount = 0;
    for (const k of Object.keys(yo)) if (yo[k] !== undefined) yCount++;
    if (xCount !== yCount) return false;
  }
  return true;
}
