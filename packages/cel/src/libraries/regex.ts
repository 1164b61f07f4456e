/**
 * Kubernetes' regex library: `find` and `findAll` (Go's `FindString` and `FindAllString` on the
 * pattern compiled by `regexp.Compile`), in time linear in the text.
 * @see https://github.com/kubernetes/apiserver/blob/v0.34.4/pkg/cel/library/regex.go
 */
import { ArrayList, ErrVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { IntType, StringType, listType } from '../internal/types.js';
import { compileRegex } from '../internal/regex.js';
import type { Regex } from '../internal/regex.js';
import { err, func, memberOverload } from './library.js';
import type { FunctionDecl } from './library.js';

/** The compiled pattern, or the library's `Illegal regex: …` error for one Go cannot compile. */
function regex(pattern: CelVal): Regex | ErrVal {
  const re = compileRegex(pattern as string);
  return re instanceof ErrVal ? err(`Illegal regex: ${re.message}`) : re;
}

function findAll(str: CelVal, pattern: CelVal, n: bigint): CelVal {
  const re = regex(pattern);
  if (re instanceof ErrVal) return re;
  // Go converts the int64 to int; beyond the text's length every count means "all of them".
  const limit = n < 0n ? -1 : Number(n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : n);
  return new ArrayList(re.findAll(str as string, limit));
}

/** The regex library. */
export const regexLibrary: readonly FunctionDecl[] = [
  func('find', memberOverload('string_find_string', [StringType, StringType], StringType, (s, p) => {
    const re = regex(p);
    return re instanceof ErrVal ? re : re.find(s as string) ?? '';
  })),
  func('findAll',
    memberOverload('string_find_all_string', [StringType, StringType], listType(StringType), (s, p) => findAll(s, p, -1n)),
    memberOverload('string_find_all_string_int', [StringType, StringType, IntType], listType(StringType),
      (s, p, n) => findAll(s, p, n as bigint))),
];
