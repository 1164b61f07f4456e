/**
 * Go regular expressions (RE2 syntax and semantics, as `regexp.MatchString` uses them) for schema
 * `pattern`s, on @bufbuild/re2. ECMAScript's RegExp differs in syntax (no `\pL`, `[[:alpha:]]`,
 * `(?i)`, `\z`; it has lookaround and backreferences, which RE2 rejects), in meaning (`\s`, `.`) and
 * in cost (backtracking can take exponential time, RE2 is linear), so it is not used.
 *
 * Speed: the engine's DFA is several times slower on empty-width assertions, so a pattern of the
 * usual shape `^body$` (anchors at the top level, no top-level `|`, no flag groups) is run as a
 * whole-input match of `body`, which is the same test.
 */
import { RE2JS } from '@bufbuild/re2';

/** A compiled pattern: `error` is Go's compile error text when the pattern is invalid. */
export interface GoRegexp {
  readonly error: string | undefined;
  test(input: string): boolean;
}

/** Whether `body` (a pattern without its outer `^`/`$`) can be matched whole instead. */
function strippable(body: string): boolean {
  if (body.includes('\\Q') || body.includes('(?') && /\(\?(?!:|P<|<)/.test(body)) return false;
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      if (body[i + 1] === ']' || (body[i + 1] === '^' && body[i + 2] === ']')) return false;
      inClass = true;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth < 0) return false;
    } else if (c === '|' && depth === 0) {
      return false;
    }
  }
  return depth === 0 && !inClass;
}

/** Whether the final `$` of `pattern` is an unescaped anchor. */
function endsWithAnchor(pattern: string): boolean {
  if (!pattern.endsWith('$')) return false;
  let backslashes = 0;
  for (let i = pattern.length - 2; i >= 0 && pattern[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}

class Compiled implements GoRegexp {
  constructor(
    private readonly re: RE2JS | undefined,
    private readonly whole: boolean,
    readonly error: string | undefined,
  ) {}

  test(input: string): boolean {
    if (this.re === undefined) return false;
    return this.whole ? this.re.testExact(input) : this.re.test(input);
  }
}

/** Compiles `pattern` as Go's `regexp.Compile` would. */
export function compileGoRegexp(pattern: string): GoRegexp {
  let full: RE2JS;
  try {
    full = RE2JS.compile(pattern);
  } catch (err) {
    return new Compiled(undefined, false, err instanceof Error ? err.message : String(err));
  }
  if (pattern.length >= 2 && pattern.startsWith('^') && endsWithAnchor(pattern)) {
    const body = pattern.slice(1, -1);
    if (strippable(body)) {
      try {
        return new Compiled(RE2JS.compile(body), true, undefined);
      } catch {
        // Fall through to the full pattern.
      }
    }
  }
  return new Compiled(full, false, undefined);
}
