/**
 * RE2 regular expressions as Go's `regexp` package compiles and runs them (cel-go's `matches`,
 * Kubernetes' `find` and `findAll`), on `re2js`: a port of RE2/J whose matching is linear in the text
 * (a lazy DFA, falling back to a Pike VM), so a hostile pattern cannot hold the caller's thread.
 *
 * `re2js` agrees with Go's `regexp` on what a pattern means and what it matches (leftmost-first,
 * code points, Go's rule for empty matches next to a previous match; see `test/regex.test.ts`, whose
 * vectors Go's `regexp` wrote). Where its parser differs from Go's, this module restores Go's
 * behaviour: Go accepts repeated capture group names, and its error texts for a trailing backslash,
 * too deep nesting and too large expressions end with the expression quoted.
 */
import { RE2JS } from 're2js';
import { ErrVal } from './values.js';

/** A compiled pattern with Go's `regexp` operations on JavaScript (UTF-16) strings. */
export interface Regex {
  /** Go's `MatchString`: whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
  /** Go's `FindStringIndex` as text: the leftmost-first match, or `undefined` when there is none. */
  find(text: string): string | undefined;
  /** Go's `FindAllString(text, n)`: successive non-overlapping matches, all of them when `n < 0`. */
  findAll(text: string, n: number): string[];
}

/** The part of `re2js`'s `RE2` (the Go-shaped API behind `RE2JS`, typed `any` there) used here. */
interface GoRE2 {
  match(s: string): boolean;
  findIndex(s: string): [number, number] | null;
  findAll(s: string, n: number): string[] | null;
}

class CompiledRegex implements Regex {
  /** @param size - the program's instructions (re2js's `programSize`), which its memory follows */
  constructor(private readonly re: GoRE2, readonly size: number) {}

  test(text: string): boolean {
    return this.re.match(text);
  }

  find(text: string): string | undefined {
    const loc = this.re.findIndex(text);
    return loc === null ? undefined : text.slice(loc[0], loc[1]);
  }

  findAll(text: string, n: number): string[] {
    return n === 0 ? [] : this.re.findAll(text, n) ?? [];
  }
}

const cache = new Map<string, Regex | ErrVal>();
const maxCached = 1000;
/**
 * The cache holds at most this many program instructions in all, and no program larger than a tenth of it:
 * a 1 KB pattern such as `(?:a…999…b){1000}` compiles to a million instructions and about 76 MB, so a count
 * alone let a few requests' patterns keep gigabytes.
 */
const maxCachedInstructions = 1_000_000;
let cachedInstructions = 0;
const errPrefix = 'error parsing regexp: ';

/** A compiled pattern, or Go's `error parsing regexp: …` error. */
export function compileRegex(pattern: string): Regex | ErrVal {
  let r = cache.get(pattern);
  if (r === undefined) {
    r = compileUncached(pattern);
    const size = r instanceof CompiledRegex ? r.size : 1;
    if (size > maxCachedInstructions / 10) return r;
    if (cache.size >= maxCached || cachedInstructions + size > maxCachedInstructions) {
      cache.clear();
      cachedInstructions = 0;
    }
    cache.set(pattern, r);
    cachedInstructions += size;
  }
  return r;
}

function compileUncached(pattern: string): Regex | ErrVal {
  let message = tryCompile(pattern);
  if (typeof message !== 'string') return message;
  if (message.startsWith(`${errPrefix}duplicate capture group name`)) {
    // Go's parser does not check names for uniqueness; only the whole match is used here, so the
    // repeats get fresh names of the same length (positions, and so error spans, are unchanged).
    const renamed = renameRepeatedGroups(pattern);
    if (renamed !== undefined) {
      const second = tryCompile(renamed);
      if (typeof second !== 'string') return second;
      message = unrename(second, renamed, pattern);
    }
  }
  return new ErrVal(goWording(message, pattern));
}

function tryCompile(pattern: string): Regex | string {
  try {
    // `re2()` is re2js's Go-style API (`findAll` follows Go's `allMatches`); its declaration is `any`.
    const compiled = RE2JS.compile(pattern);
    return new CompiledRegex(compiled.re2() as GoRE2, compiled.programSize());
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Go's words where re2js leaves out the quoted expression. */
function goWording(message: string, pattern: string): string {
  switch (message) {
    case `${errPrefix}trailing backslash at end of expression`: return `${message}: \`\``;
    case `${errPrefix}expression nests too deeply`:
    case `${errPrefix}expression too large`: return `${message}: \`${pattern}\``;
    default: return message;
  }
}

/** An error of the renamed pattern with its quoted span read from the original at the same place. */
function unrename(message: string, renamed: string, pattern: string): string {
  const open = message.indexOf(': `');
  if (!message.endsWith('`') || open < 0) return message;
  const span = message.slice(open + 3, -1);
  const at = renamed.indexOf(span);
  return at < 0 ? message : `${message.slice(0, open + 3)}${pattern.slice(at, at + span.length)}\``;
}

const nameChars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';

/**
 * `pattern` with each repeated group name (`(?P<n>…)`, `(?<n>…)`) after its first use replaced by an
 * unused name of the same length, or `undefined` when there is no such name. Escapes, `\Q…\E` and
 * character classes are skipped as Go's parser reads them.
 */
function renameRepeatedGroups(pattern: string): string | undefined {
  const groups: { at: number; name: string }[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      if (pattern.startsWith('\\Q', i)) {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 2;
      } else i += 2;
    } else if (c === '[') i = classEnd(pattern, i);
    else if (c === '(' && (pattern.startsWith('(?P<', i) || pattern.startsWith('(?<', i))) {
      const at = pattern.indexOf('<', i) + 1;
      const close = pattern.indexOf('>', at);
      if (close < 0) return undefined;
      groups.push({ at, name: pattern.slice(at, close) });
      i = close + 1;
    } else i++;
  }
  const used = new Set(groups.map((g) => g.name));
  const seen = new Set<string>();
  // Linear in the pattern however many groups repeat (the pattern may be request data): the pieces are
  // joined once, and the candidates for fresh names of each length are tried once in all.
  const pieces: string[] = [];
  const nextCandidate = new Map<number, number>();
  let from = 0;
  for (const g of groups) {
    if (!seen.has(g.name)) {
      seen.add(g.name);
      continue;
    }
    const fresh = freshName(g.name.length, used, nextCandidate);
    if (fresh === undefined) return undefined;
    used.add(fresh);
    pieces.push(pattern.slice(from, g.at), fresh);
    from = g.at + g.name.length;
  }
  pieces.push(pattern.slice(from));
  return pieces.join('');
}

/** The index after the character class opening at `start` (its `]`, or the end of the pattern). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length) {
    if (pattern[i] === ']') return i + 1;
    if (pattern[i] === '\\') i += 2;
    else if (pattern.startsWith('[:', i)) {
      const end = pattern.indexOf(':]', i + 2);
      i = end < 0 ? i + 1 : end + 2;
    } else i++;
  }
  return i;
}

/**
 * The next name of `length` characters not in `used`, from where the last search for that length stopped
 * (`next`), trying at most `used.size + 1` candidates in all.
 */
function freshName(length: number, used: ReadonlySet<string>, next: Map<number, number>): string | undefined {
  if (length === 0) return undefined;
  for (let k = next.get(length) ?? 0; k <= used.size; k++) {
    let name = '';
    let rest = k;
    for (let j = 0; j < length; j++) {
      name = nameChars[rest % nameChars.length] + name;
      rest = Math.floor(rest / nameChars.length);
    }
    if (rest > 0) return undefined;
    if (!used.has(name)) {
      next.set(length, k + 1);
      return name;
    }
  }
  return undefined;
}
