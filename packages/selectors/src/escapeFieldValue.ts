import { SelectorParseError } from './selectorParseError.js';

const special = /[\\,=]/;
const specialGlobal = /[\\,=]/g;

/**
 * Escapes a literal value for use in a field selector (`fields.EscapeValue`): `\` becomes `\\`, `,`
 * becomes `\,` and `=` becomes `\=`, so any value can be selected on.
 *
 * @example
 * ```ts
 * `spec.note=${escapeFieldValue('a=b, c')}`; // 'spec.note=a\\=b\\, c'
 * ```
 */
export function escapeFieldValue(value: string): string {
  return special.test(value) ? value.replace(specialGlobal, '\\$&') : value;
}

/**
 * The literal value of an escaped field selector value (`fields.UnescapeValue`). Throws a
 * {@link SelectorParseError} with the apiserver's text for an unknown escape (`invalid field
 * selector: invalid escape sequence: \a`), a trailing backslash, or an unescaped `,` or `=`
 * (`invalid field selector: unescaped character in value: 61`, naming the character's code).
 */
export function unescapeFieldValue(value: string): string {
  if (!special.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}
