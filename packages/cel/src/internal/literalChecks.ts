/**
 * What cel-go's parser checks of a literal that its lexer accepted: whether an int or uint fits in 64
 * bits (Go's strconv.ParseInt and ParseUint), and whether a string's escapes are characters
 * (parser/unescape.go).
 */

/** Whether `text` (decimal or hex digits) is a number of at most `max` (Go's strconv.ParseInt/ParseUint range). */
export function parsesWithin(text: string, hex: boolean, max: bigint): boolean {
  if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(text)) return false;
  return BigInt(hex ? `0x${text}` : text) <= max;
}

/**
 * cel-go's unescape (parser/unescape.go) as far as its errors go: the lexer has already checked the
 * form of every escape, what is left is the code points that are not characters and `\u`/`\U` in bytes.
 */
export function unescapeError(raw: string, isBytes: boolean): string | undefined {
  let value = raw.replace(/\r\n?/g, '\n');
  if (value.length < 2) return 'unable to unescape string';
  let isRaw = false;
  if (value[0] === 'r' || value[0] === 'R') {
    value = value.slice(1);
    isRaw = true;
  }
  const n = value.length;
  if (value[0] !== value[n - 1] || (value[0] !== '"' && value[0] !== "'")) return 'unable to unescape string';
  if (n >= 6 && (value.startsWith("'''") || value.startsWith('"""'))) value = `"${value.slice(3, n - 3)}"`;
  value = value.slice(1, -1);
  if (isRaw || !value.includes('\\')) return undefined;
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== '\\') continue;
    if (i + 1 >= value.length) return "unable to unescape string, found '\\' as last character";
    const c = value[++i];
    if (c === 'x' || c === 'X' || c === 'u' || c === 'U') {
      const digits = c === 'x' || c === 'X' ? 2 : c === 'u' ? 4 : 8;
      if (isBytes && (c === 'u' || c === 'U')) return 'unable to unescape string';
      const hex = value.slice(i + 1, i + 1 + digits);
      if (hex.length < digits || !/^[0-9a-fA-F]+$/.test(hex)) return 'unable to unescape string';
      const v = parseInt(hex, 16);
      if (!isBytes && (v > 0x10ffff || (v >= 0xd800 && v < 0xe000))) return 'invalid unicode code point';
      i += digits;
    } else if (c >= '0' && c <= '3') {
      const oct = value.slice(i + 1, i + 3);
      if (!/^[0-7]{2}$/.test(oct)) return 'unable to unescape octal sequence in string';
      i += 2;
    } else if (!'abfnrtv\\\'"`?'.includes(c)) {
      return 'unable to unescape string';
    }
  }
  return undefined;
}
