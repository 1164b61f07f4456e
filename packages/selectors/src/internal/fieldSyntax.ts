// The two lexical steps of `fields.ParseSelector` (selector.go splitTerms and splitTerm).

/** A field selector operator as written: `==` means the same as `=`. */
export type FieldTermOperator = '=' | '==' | '!=';

/**
 * Splits a field selector on commas that are not escaped with a backslash. Escapes stay in the terms
 * (`k=\,` stays `k=\,`). Empty input has no terms (`null`, as Go's nil slice); empty terms are kept.
 */
export function splitTerms(selector: string): string[] | null {
  if (selector.length === 0) return null;
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector.charCodeAt(i);
    if (inSlash) inSlash = false;
    else if (c === 0x5c) inSlash = true;
    else if (c === 0x2c) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/**
 * Splits one term at the first operator, scanning left to right and trying `!=`, then `==`, then `=`
 * at each position; the field name can therefore never contain an operator. The value comes back
 * still escaped. `undefined` when the term has no operator.
 */
export function splitTerm(term: string): [lhs: string, op: FieldTermOperator, rhs: string] | undefined {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c === 0x21) {
      if (term.charCodeAt(i + 1) === 0x3d) return [term.slice(0, i), '!=', term.slice(i + 2)];
    } else if (c === 0x3d) {
      if (term.charCodeAt(i + 1) === 0x3d) return [term.slice(0, i), '==', term.slice(i + 2)];
      return [term.slice(0, i), '=', term.slice(i + 1)];
    }
  }
  return undefined;
}
