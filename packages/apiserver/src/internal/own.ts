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
