/**
 * Go's `strings.TrimSpace`: leading and trailing Unicode white space cut (`unicode.IsSpace`: tab, line
 * feed, vertical tab, form feed, carriage return, space, U+0085, U+00A0, and the White_Space characters
 * beyond Latin-1). Not JavaScript's `\s`, which also has U+FEFF; and a loop, not a regular expression:
 * `/\s+$/` retries from every character of an inner run of spaces, quadratic in the run (28 s for
 * 100,000 spaces inside a CEL messageExpression's result; selectors and CEL's `trim()` had the same).
 */
export function trimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(s.charCodeAt(start))) start++;
  while (end > start && isSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** `unicode.IsSpace` for a UTF-16 code unit (every White_Space character is in the BMP). */
export function isSpace(c: number): boolean {
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}
