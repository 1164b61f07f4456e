// Own-property access to objects indexed by request data: a key from a request (a JSON patch path, a
// merge patch or applied configuration key, a field path) is data, never a way to an object's prototype.
import { cloneJSON } from '@kubekit/core';

/** A JSON object as decoded from a request. */
export type JSONObject = Record<string, unknown>;

/** Whether `v` is a JSON object (not null, not an array). */
export function isObject(v: unknown): v is JSONObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `v` if it is a string, else `''` (a Go string field read from a decoded object: absent is empty). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `v` if it is a number, else undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/**
 * The objects of a list (none if `v` is not one). A decoded built-in object's lists of structs hold only
 * objects (the decoder refuses other items and writes a `null` item as the zero struct, `{}`), so the
 * indexes are the request's.
 */
export function objects(v: unknown): JSONObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
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

/** The value at `path` through own properties of nested objects, or undefined where a step is missing. */
export function valueAt(o: unknown, ...path: string[]): unknown {
  let cur = o;
  for (const k of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** The object at `path` through own properties, or undefined when it is missing or not an object. */
export function objectAt(o: unknown, ...path: string[]): JSONObject | undefined {
  const v = valueAt(o, ...path);
  return isObject(v) ? v : undefined;
}

/** The object at a key of an object, created (and set) when missing or not an object. */
export function childObject(o: JSONObject, key: string): JSONObject {
  const v = getOwn(o, key);
  if (isObject(v)) return v;
  const created: JSONObject = {};
  setOwn(o, key, created);
  return created;
}

/** Sets a field when it is absent, null or empty (the `if x == nil { x = default }` of the defaulting functions). */
export function setDefault(o: JSONObject, key: string, value: unknown): void {
  const v = getOwn(o, key);
  if (v === undefined || v === null || v === '') setOwn(o, key, value);
}

/** A deep copy of a JSON value: core's, re-exported for the apiserver's modules. */
export { cloneJSON } from '@kubekit/core';

/**
 * A JSON copy of `value` that also hands `each` every object of it with its copy, for what a copy must carry
 * besides the JSON (marks kept in a WeakMap, a member order). Iterative: any depth is safe.
 */
export function cloneJSONWith<T>(value: T, each: (from: Record<string, unknown>, to: Record<string, unknown>) => void): T {
  const copy = cloneJSON(value);
  const stack: [unknown, unknown][] = [[value, copy]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) if (from[i] !== null && typeof from[i] === 'object') stack.push([from[i], (to as unknown[])[i]]);
    } else if (isObject(from) && isObject(to)) {
      each(from, to);
      for (const k of Object.keys(from)) if (from[k] !== null && typeof from[k] === 'object') stack.push([from[k], to[k]]);
    }
  }
  return copy;
}

/** Copies the own enumerable properties of `source` onto `target` (`Object.assign` that never sets a prototype). */
export function assignOwn(target: JSONObject, source: JSONObject): void {
  for (const k of Object.keys(source)) setOwn(target, k, source[k]);
}
