/**
 * The Go kind of a decoded JSON value, as the apiserver's `UnstructuredToVal` sees it: integers are
 * int64, other numbers float64. `@kubekit/crd`'s value validator uses these too.
 */

/** The Go kind of a decoded JSON value. */
export type GoKind = 'nil' | 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The Go kind of `v`: a `bigint` within int64 or a safe integral `number` is `int`. An integral
 * `number` beyond ±(2^53−1) is `float`: `parseJSON` gives every integer literal beyond 2^53 within
 * int64 as a `bigint`, so such a number was written as a float (`1e18`, `9007199254740993.0`) or as an
 * integer beyond int64 (`-9223372036854775809`, which rounds to −2^63), and apimachinery's JSON decoding
 * (`convertNumber`: `Int64()`, else `Float64()`) makes both a float64.
 */
export function goKind(v: unknown): GoKind {
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return Number.isSafeInteger(v) ? 'int' : 'float';
    case 'boolean': return 'bool';
    case 'bigint': return v >= INT64_MIN && v <= INT64_MAX ? 'int' : 'float';
    case 'object': return v === null ? 'nil' : Array.isArray(v) ? 'slice' : 'map';
    default: return 'nil';
  }
}

/** Go's `%T` of a decoded JSON value. */
export function goTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'nil': return '<nil>';
    case 'bool': return 'bool';
    case 'string': return 'string';
    case 'int': return 'int64';
    case 'float': return 'float64';
    case 'slice': return '[]interface {}';
    default: return 'map[string]interface {}';
  }
}
