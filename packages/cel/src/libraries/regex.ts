/**
 * Kubernetes' regex library: `find` and `findAll` (the first or the first n leftmost matches).
 * The pattern is validated with RE2 (as the apiserver compiles it); matches are located with the
 * JavaScript engine, which agrees with RE2's leftmost-first semantics for the patterns RE2 accepts.
 */
import { ArrayList, ErrVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { IntType, StringType, listType } from '../internal/types.js';
import { compileRegex } from '../internal/regex.js';
import { err, func, memberOverload } from './library.js';
import type { FunctionDecl } from './library.js';

const jsCache = new Map<string, RegExp | ErrVal>();

/** The JavaScript form of an RE2 pattern (named groups, leading flag groups, `\z`). */
function toJs(pattern: string): RegExp | ErrVal {
  let cached = jsCache.get(pattern);
  if (cached !== undefined) return cached;
  const re2 = compileRegex(pattern);
  if (re2 instanceof ErrVal) cached = re2;
  else {
    let flags = 'gu';
    let p = pattern;
    const lead = /^\(\?([imsU]+)\)/.exec(p);
    if (lead !== null) {
      if (lead[1].includes('i')) flags += 'i';
      if (lead[1].includes('m')) flags += 'm';
      if (lead[1].includes('s')) flags += 's';
      p = p.slice(lead[0].length);
    }
    p = p.replace(/\(\?P</g, '(?<').replace(/\\z/g, '$').replace(/\\A/g, '^');
    try {
      cached = new RegExp(p, flags);
    } catch {
      cached = err(`regular expression ${JSON.stringify(pattern)} is not supported by kubekit's find/findAll`);
    }
  }
  if (jsCache.size > 1000) jsCache.clear();
  jsCache.set(pattern, cached);
  return cached;
}

function findAll(str: string, pattern: string, limit: number): CelVal {
  const re = toJs(pattern);
  if (re instanceof ErrVal) return re;
  const out: string[] = [];
  if (limit === 0) return new ArrayList(out);
  re.lastIndex = 0;
  for (let guard = 0; guard <= str.length + 1; guard++) {
    const m = re.exec(str);
    if (m === null) break;
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
    if (m[0] === '') re.lastIndex++;
  }
  return new ArrayList(out);
}

/** The regex library. */
export const regexLibrary: readonly FunctionDecl[] = [
  func('find', memberOverload('string_find_string', [StringType, StringType], StringType, (s, p) => {
    const r = findAll(s as string, p as string, 1);
    if (r instanceof ErrVal) return r;
    return (r as ArrayList).size() > 0 ? (r as ArrayList).get(0) : '';
  })),
  func('findAll',
    memberOverload('string_find_all_string', [StringType, StringType], listType(StringType), (s, p) => findAll(s as string, p as string, -1)),
    memberOverload('string_find_all_string_int', [StringType, StringType, IntType], listType(StringType),
      (s, p, n) => findAll(s as string, p as string, Number(n as bigint)))),
];
