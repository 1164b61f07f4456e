/**
 * Go's `encoding/json` output for the few shapes selector errors print: a field error whose bad
 * value is not a plain string (a `[]string` of values, a `selection.Operator`) is rendered with
 * `json.Marshal`, which, unlike `JSON.stringify`, escapes HTML characters and U+2028/U+2029. A lone
 * surrogate prints as U+FFFD, which is what it becomes when the text is sent to a Go server as UTF-8.
 */

const hex = '0123456789abcdef';

/** `json.Marshal` of a Go string. */
export function goJSONString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    switch (u) {
      case 0x22: out += '\\"'; continue;
      case 0x5c: out += '\\\\'; continue;
      case 0x08: out += '\\b'; continue;
      case 0x0c: out += '\\f'; continue;
      case 0x0a: out += '\\n'; continue;
      case 0x0d: out += '\\r'; continue;
      case 0x09: out += '\\t'; continue;
      case 0x3c: case 0x3e: case 0x26: case 0x2028: case 0x2029:
        out += '\\u' + u.toString(16).padStart(4, '0');
        continue;
    }
    if (u < 0x20) {
      out += '\\u00' + hex[u >> 4] + hex[u & 0xf];
    } else if (u >= 0xd800 && u < 0xe000) {
      const next = s.charCodeAt(i + 1);
      if (u < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
        out += s[i] + s[i + 1];
        i++;
      } else {
        out += '\ufffd';
      }
    } else {
      out += s[i];
    }
  }
  return out + '"';
}

/** `json.Marshal` of a Go `[]string` (`null` for a nil slice). */
export function goJSONStrings(values: readonly string[] | null): string {
  if (values === null) return 'null';
  return `[${values.map(goJSONString).join(',')}]`;
}
