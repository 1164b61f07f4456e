// go-yaml v2's look at a scalar before writing it (go.yaml.in/yaml/v2@v2.4.2 emitterc.go
// yaml_emitter_analyze_scalar, yamlprivateh.go's character classes) and write_double_quoted's escapes.

/** yaml_emitter_analyze_scalar's verdict on a value. */
export interface Analysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

// Names, versions, paths and the like: no indicator, space, break or special character can be in them.
const simpleText = /^[A-Za-z0-9/_.=+$()~-]*$/;
const emptyAnalysis: Readonly<Analysis> = { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
const simpleAnalysis: Readonly<Analysis> = { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };

/** yaml_emitter_analyze_scalar, over code points. */
export function analyze(value: string): Readonly<Analysis> {
  if (value.length === 0) return emptyAnalysis;
  if (simpleText.test(value) && !(value.charCodeAt(0) === 0x2d && value.length === 1) && !value.startsWith('---') && !value.startsWith('...')) {
    return simpleAnalysis;
  }
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) blockIndicators = true;
  let precededByWhitespace = true;
  const n = value.length;
  for (let i = 0; i < n; i++) {
    let c = value.charCodeAt(i);
    let w = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      c = value.codePointAt(i)!;
      w = 2;
    }
    const next = value.charCodeAt(i + w);
    const followedByWhitespace = i + w >= n || next === 0x20 || next === 0x09;
    if (i === 0) {
      switch (c) {
        case 0x23: case 0x2c: case 0x5b: case 0x5d: case 0x7b: case 0x7d: case 0x26: case 0x2a:
        case 0x21: case 0x7c: case 0x3e: case 0x27: case 0x22: case 0x25: case 0x40: case 0x60:
          blockIndicators = true;
          break;
        case 0x3f: case 0x3a:
          if (followedByWhitespace) blockIndicators = true;
          break;
        case 0x2d:
          if (followedByWhitespace) blockIndicators = true;
          break;
      }
    } else if ((c === 0x3a && followedByWhitespace) || (c === 0x23 && precededByWhitespace)) {
      blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i + w === n) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i + w === n) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === 0x20 || c === 0x09 || c === 0 || isBreak(c);
    i += w - 1;
  }
  const a: Analysis = { multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || blockIndicators) a.blockPlainAllowed = false;
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  return a;
}

/** is_printable: what go-yaml writes unescaped (no C0 or C1 controls but LF, no BOM, nothing beyond the BMP). */
export function isPrintable(c: number): boolean {
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
}

export function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

export function countLowSurrogates(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (isLowSurrogate(s.charCodeAt(i))) n++;
  return n;
}

const namedEscapes = new Map<number, string>([
  [0x00, '0'], [0x07, 'a'], [0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0b, 'v'], [0x0c, 'f'], [0x0d, 'r'],
  [0x1b, 'e'], [0x22, '"'], [0x5c, '\\'], [0x85, 'N'], [0xa0, '_'], [0x2028, 'L'], [0x2029, 'P'],
]);

/** write_double_quoted's escape for a code point (after the backslash), hex in upper case. */
export function escapeOf(c: number): string {
  const named = namedEscapes.get(c);
  if (named !== undefined) return named;
  const hex = c.toString(16).toUpperCase();
  if (c <= 0xff) return 'x' + hex.padStart(2, '0');
  if (c <= 0xffff) return 'u' + hex.padStart(4, '0');
  return 'U' + hex.padStart(8, '0');
}

export function utf8Length(s: string): number {
  if (s.length * 3 <= 128) return s.length;
  return Buffer.byteLength(s, 'utf8');
}
