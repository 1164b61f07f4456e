// Safe access to untrusted JSON values: own properties only, and writes that can never reach a prototype.

/** A JSON object as decoded from untrusted input. */
export type JSONObject = Record<string, unknown>;

/** Whether `x` is a JSON object (Go's `map[string]interface{}`): not null, not an array. */
export function isObject(x: unknown): x is JSONObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Whether `x` is a JSON object or array, the values the algorithms descend into. */
export function isContainer(x: unknown): x is JSONObject | unknown[] {
  return typeof x === 'object' && x !== null;
}

/**
 * The value of the own property `key`, or `undefined`. Inherited properties (`constructor`, the
 * `__proto__` accessor) are never read as data.
 */
export function getOwn(obj: JSONObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Sets the own property `key`. `__proto__` becomes an ordinary own data property instead of invoking
 * the prototype setter, so a key from untrusted input can never change an object's prototype.
 */
export function setOwn(obj: JSONObject, key: string, value: unknown): void {
  if (key === '__proto__' && !Object.hasOwn(obj, key)) {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** Go's `sort.Strings` order (byte-wise over UTF-8): core's. */
export { compareGoStrings } from '@kubekit/core';
