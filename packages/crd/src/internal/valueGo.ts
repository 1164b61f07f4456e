/**
 * Go semantics that kube-openapi's validator depends on, for values as the apiserver decodes them:
 * integers are int64, other numbers float64, and Go's `reflect` rules decide equality and conversion.
 *
 * JavaScript values map to Go kinds as follows (`goKind`): a safe integral `number`, or a `bigint` within
 * int64, is an int64; any other number (an integral `number` beyond ±(2^53−1), which `parseJSON` only
 * gives for a float literal or an integer beyond int64, or a `bigint` beyond int64) is a float64. A
 * parsed value cannot tell `1.0` from `1`, so both are int64 here where Go decodes `1.0` as float64;
 * that shows in the type name of a message (`"number"` vs `"integer"`) and where Go compares an int64
 * with a float64 (`reflect.DeepEqual`: the generation bump of a custom resource whose `1` became `1.0`).
 * `undefined`, functions and symbols (which JSON cannot hold) count as `null`.
 */
import { goFormatFloat } from '@kubekit/core';
import { goKind, goTypeName, type GoKind } from '@kubekit/cel';

export { goKind, goTypeName, type GoKind };

/** An int64: a safe integer `number`, or a `bigint` within int64. */
export type Int64 = number | bigint;

/** The int64 range. */
export const INT64_MIN = -(2n ** 63n);
/** The largest int64. */
export const INT64_MAX = 2n ** 63n - 1n;
const TWO_63 = 2 ** 63;

/** The int64 of a value of kind `int`, as a safe `number` when it fits. */
export function asInt64(v: unknown): Int64 {
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
  const n = v as number;
  return Number.isSafeInteger(n) ? n : BigInt(n);
}

/** The float64 of a numeric value (`float64(x)` in Go). */
export function asFloat64(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

/**
 * Go's `int64(f)` for a float64: truncation toward zero; NaN and out-of-range values give the minimum
 * int64, as Go does on amd64 (the conversion is implementation-defined there).
 */
export function int64OfFloat(f: number): Int64 {
  if (!Number.isFinite(f) || f >= TWO_63 || f < -TWO_63) return INT64_MIN;
  const t = Math.trunc(f);
  return Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : BigInt(t);
}

/** Compares two int64s: negative, zero or positive. */
export function compareInt64(a: Int64, b: Int64): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `a % b` for int64s with `b > 0`. */
export function remInt64(a: Int64, b: Int64): Int64 {
  if (typeof a === 'number' && typeof b === 'number') return a % b;
  return BigInt(a) % BigInt(b);
}

/** Go's `%v` of an int64 or float64 held as a JavaScript value of kind `int` or `float`. */
export function goNumberText(v: unknown, kind: 'int' | 'float'): string {
  return kind === 'int' ? String(asInt64(v)) : goFormatFloat(asFloat64(v));
}

/** Go's `math.Round`: half away from zero. */
function goRound(f: number): number {
  return f < 0 ? -Math.round(-f) : Math.round(f);
}

/**
 * go-openapi/swag's `IsFloat64AJSONInteger` (swag ≥ 0.25): within ±(2^53−1) and equal to its rounding,
 * or within a relative error of 1e-9 of it.
 */
export function isFloat64AJSONInteger(f: number): boolean {
  const maxJSONFloat = 9007199254740991;
  if (Number.isNaN(f) || !Number.isFinite(f) || f < -maxJSONFloat || f > maxJSONFloat) return false;
  const rounded = goRound(f);
  if (f === rounded) return true;
  if (rounded === 0) return false;
  const diff = Math.abs(f - rounded);
  if (diff === 0) return true;
  return diff < 1e-9 * Math.abs(rounded);
}

/** Go's `string(rune(n))` for an int64: the character, or U+FFFD when `n` is not a valid rune. */
function runeString(n: Int64): string {
  const c = typeof n === 'bigint' ? (n >= 0n && n <= 0x10ffffn ? Number(n) : -1) : n;
  if (c < 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(c);
}

/**
 * Go's `reflect.DeepEqual` of two decoded JSON values: same kinds, equal scalars (NaN never equal),
 * equal lengths and elements, equal key sets and values. Iterative, so any depth is safe.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    const kx = goKind(x);
    if (kx !== goKind(y)) return false;
    switch (kx) {
      case 'nil': continue;
      case 'int': if (compareInt64(asInt64(x), asInt64(y)) !== 0) return false; continue;
      case 'float': if (asFloat64(x) !== asFloat64(y)) return false; continue;
      case 'slice': {
        const xs = x as unknown[];
        const ys = y as unknown[];
        if (xs.length !== ys.length) return false;
        for (let i = 0; i < xs.length; i++) stack.push(xs[i], ys[i]);
        continue;
      }
      case 'map': {
        const xm = x as Record<string, unknown>;
        const ym = y as Record<string, unknown>;
        const keys = Object.keys(xm);
        if (keys.length !== Object.keys(ym).length) return false;
        for (const k of keys) {
          if (!Object.prototype.hasOwnProperty.call(ym, k)) return false;
          stack.push(xm[k], ym[k]);
        }
        continue;
      }
      default: if (x !== y) return false;
    }
  }
  return true;
}

/**
 * kube-openapi's enum comparison: `data` matches `enumValue` when Go can convert it to the enum
 * value's type and the result is deeply equal. So an int64 converts to a float64 enum value and to a
 * string (as a rune: 53 matches `"5"`), and a float64 converts to an int64 enum value by truncation.
 */
export function enumMatches(data: unknown, dataKind: GoKind, enumValue: unknown): boolean {
  const ek = goKind(enumValue);
  if (ek === 'nil' || dataKind === 'nil') return false;
  switch (dataKind) {
    case 'int':
      if (ek === 'int') return compareInt64(asInt64(data), asInt64(enumValue)) === 0;
      if (ek === 'float') return asFloat64(data) === asFloat64(enumValue);
      if (ek === 'string') return runeString(asInt64(data)) === enumValue;
      return false;
    case 'float':
      if (ek === 'float') return asFloat64(data) === asFloat64(enumValue);
      if (ek === 'int') return compareInt64(int64OfFloat(asFloat64(data)), asInt64(enumValue)) === 0;
      return false;
    default:
      return dataKind === ek && deepEqual(data, enumValue);
  }
}

/**
 * Measures nesting iteratively and reports whether `value` holds more than `limit` nested arrays and
 * objects (Go's encoding/json rejects JSON nested deeper than 10000).
 */
export function exceedsDepth(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: object[] = [value as object];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop()!;
    const d = depths.pop()!;
    if (d > limit) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c: unknown = v[i];
        if (c !== null && typeof c === 'object') {
          stack.push(c);
          depths.push(d + 1);
        }
      }
    } else {
      for (const k in v) {
        const c: unknown = (v as Record<string, unknown>)[k];
        if (c !== null && typeof c === 'object') {
          stack.push(c);
          depths.push(d + 1);
        }
      }
    }
  }
  return false;
}

