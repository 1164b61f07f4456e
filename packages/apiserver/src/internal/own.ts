// Own-property access to objects indexed by request data: a key from a request (a JSON patch path, a
// merge patch or applied configuration key, a field path) is data, never a way to an object's prototype.

/** A JSON object as decoded from a request. */
export type JSONObject = Record<string, unknown>;

/** Whether `v` is a JSON object (not null, not an array). */
export function isObject(v: unknown): v is JSONObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The own property `key` of `obj`, or undefined; inherited members (`__proto__`, `constructor`) are not data. */
export function getOwn(obj: JSONObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Sets the own property `key` of `obj`. A `__proto__` key becomes an ordinary own data property (as
 * Go's `map[string]interface{}` holds it), never a call of the prototype setter.
 */
export function setOwn(obj: JSONObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/**
 * A deep copy of a JSON value, iterative (no recursion over user data): objects and arrays are copied,
 * scalars (`bigint` included) shared, own enumerable keys only, `__proto__` copied as data.
 */
export function cloneJSON<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const copy = (v: object): object => (Array.isArray(v) ? new Array<unknown>(v.length) : {});
  const root = copy(value);
  const stack: [object, object][] = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      const out = to as unknown[];
      for (let i = 0; i < from.length; i++) {
        const v: unknown = from[i];
        if (v !== null && typeof v === 'object') {
          const c = copy(v);
          out[i] = c;
          stack.push([v, c]);
        } else out[i] = v;
      }
    } else {
      const out = to as JSONObject;
      for (const k of Object.keys(from)) {
        const v: unknown = (from as JSONObject)[k];
        if (v !== null && typeof v === 'object') {
          const c = copy(v);
          setOwn(out, k, c);
          stack.push([v, c]);
        } else setOwn(out, k, v);
      }
    }
  }
  return root as T;
}

/** Copies the own enumerable properties of `source` onto `target` (`Object.assign` that never sets a prototype). */
export function assignOwn(target: JSONObject, source: JSONObject): void {
  for (const k of Object.keys(source)) setOwn(target, k, source[k]);
}
