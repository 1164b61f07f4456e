/**
 * RE2 regular expressions (as cel-go and Kubernetes use them) through `@bufbuild/re2`, compiled once
 * per pattern.
 */
import { RE2JS } from '@bufbuild/re2';
import { ErrVal } from './values.js';

const cache = new Map<string, RE2JS | ErrVal>();
const maxCached = 1000;

/** A compiled pattern, or the `error parsing regexp: …` error. */
export function compileRegex(pattern: string): RE2JS | ErrVal {
  let r = cache.get(pattern);
  if (r === undefined) {
    try {
      r = RE2JS.compile(pattern);
    } catch (e) {
      r = new ErrVal(e instanceof Error ? e.message : String(e));
    }
    if (cache.size >= maxCached) cache.clear();
    cache.set(pattern, r);
  }
  return r;
}
