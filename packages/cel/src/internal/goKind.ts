/**
 * The Go kind of a decoded JSON value, as the apiserver's `UnstructuredToVal` sees it: integers are
 * int64, other numbers float64. `@kubekit/crd`'s value validator uses these too.
 */

/** The Go kind of a decoded JSON value. */
export type GoKind = 'nil' | 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TWO_63 = 2 ** 63;

/** The Go kind of `v`: an integral `number` or `bigint` within int64 is `int`. */
export function goKind(v: unknown): GoKind {
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return Number.isInteger(v) && v >= -TWO_63 && v < TWO_63 ? 'int' : 'float';
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
