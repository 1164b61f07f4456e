/**
 * Go's view of strings, where it differs from JavaScript's: Go compares strings byte by byte in
 * UTF-8, which is code point order, while JavaScript's `<` compares UTF-16 code units; and Go's
 * `len()` counts UTF-8 bytes.
 */

/**
 * Go's string comparison (`a < b` on UTF-8 bytes): negative, zero or positive.
 *
 * UTF-16 code unit order equals code point order except where a surrogate (part of a code point above
 * U+FFFF) meets a unit in U+E000..U+FFFF; remapping both ranges at the first difference fixes that.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = remapHighUnit(x);
        y = remapHighUnit(y);
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Go's `a < b` for strings. */
export function goLess(a: string, b: string): boolean {
  return compareGoStrings(a, b) < 0;
}

function remapHighUnit(u: number): number {
  return u < 0xe000 ? u + 0x2000 : u - 0x800;
}

/**
 * Go's `len(s)`: the number of UTF-8 bytes. A lone surrogate counts as the three bytes of U+FFFD,
 * which is what it becomes when the text reaches a Go server.
 */
export function utf8ByteLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u < 0x80) bytes += 1;
    else if (u < 0x800) bytes += 2;
    else if (u >= 0xd800 && u < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
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
