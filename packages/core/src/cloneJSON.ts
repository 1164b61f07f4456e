// One deep copy of decoded JSON for every package that copies request data.

/**
 * A deep copy of a JSON value (Go's `runtime.DeepCopyJSONValue`): objects and arrays are copied, scalars
 * (`bigint` included) are shared. Own enumerable keys only, and an own `__proto__` key is copied as data,
 * never as the copy's prototype. Iterative: values as deep as the apiserver accepts (10,000 levels, and
 * managed fields a few levels deeper) copy without touching the stack.
 */
export function cloneJSON<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const shell = (v: object): object => (Array.isArray(v) ? new Array<unknown>(v.length) : {});
  const root = shell(value);
  const stack: [object, object][] = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    const keys = Array.isArray(from) ? undefined : Object.keys(from);
    const n = keys === undefined ? (from as unknown[]).length : keys.length;
    for (let i = 0; i < n; i++) {
      const k = keys === undefined ? i : keys[i]!;
      const v: unknown = (from as Record<string | number, unknown>)[k];
      let c: unknown = v;
      if (v !== null && typeof v === 'object') {
        c = shell(v);
        stack.push([v, c as object]);
      }
      if (k === '__proto__') Object.defineProperty(to, k, { value: c, writable: true, enumerable: true, configurable: true });
      else (to as Record<string | number, unknown>)[k] = c;
    }
  }
  return root as T;
}
