// How the apiserver turns the values it selects on into strings.
//
// Custom resources: `fmt.Sprint` of the decoded JSON value (strategy.go `selectableFields`), with nil
// as "". Built-in kinds: the Go field's value, so a field that is absent from the JSON reads as its Go
// zero value ("" for strings, "false" for booleans, "0" for integers).
import { goSprint } from '@kubekit/core';

/**
 * `fmt.Sprint` of a decoded JSON value, "" for absent or null. Strings as-is; integers (numbers and
 * bigints) in full decimal; floats as Go's `%v`; booleans `true`/`false`; arrays and objects as Go
 * prints `[]interface{}` and `map[string]interface{}` (`[a b]`, `map[k:v]`).
 */
export function sprintValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'object') return goSprint(value);
  // Not a JSON value (a function or a symbol planted in a hand-built object): there is nothing the
  // apiserver would have decoded, so it reads as absent.
  return '';
}

/** A Go `string` field: the string, or "" when absent or of another type. */
export function stringValue(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A Go `bool` field printed with `strconv.FormatBool` / `fmt.Sprint`: "false" unless `true`. */
export function boolValue(value: unknown): string {
  return value === true ? 'true' : 'false';
}

/** A Go integer field printed with `strconv.Itoa`: the integer in decimal, "0" when absent. */
export function intValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) {
    return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
  }
  return '0';
}
