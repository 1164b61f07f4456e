/**
 * Go's view of strings, where it differs from JavaScript's: Go compares strings byte by byte in
 * UTF-8, which is code point order, while JavaScript's `<` compares UTF-16 code units; and Go's
 * `len()` counts UTF-8 bytes.
 */
import { compareGoStrings } from '@kubekit/core';

export { compareGoStrings, utf8ByteLength } from '@kubekit/core';

/** Go's `a < b` for strings. */
export function goLess(a: string, b: string): boolean {
  return compareGoStrings(a, b) < 0;
}

/** Sorts strings in place in Go's order (for sets, where equal elements are indistinguishable). */
export function sortGoStrings(values: string[]): string[] {
  return values.sort(compareGoStrings);
}

/** Whether `values` is already in Go's order (`sort.StringsAreSorted`). */
export function goStringsAreSorted(values: readonly string[]): boolean {
  for (let i = 1; i < values.length; i++) if (compareGoStrings(values[i], values[i - 1]) < 0) return false;
  return true;
}

/**
 * The same string, internalized (the engine's canonical copy, as property names are). A selector's
 * field names come out of its text as slices, and looking up an object property by a slice makes the
 * engine find the canonical copy on every lookup; doing it once when a selector is compiled keeps
 * `matches` to plain property loads and pointer comparisons.
 */
export function internalize(s: string): string {
  return Object.keys({ [s]: true })[0];
}
