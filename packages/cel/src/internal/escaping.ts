/**
 * Property-name escaping for CEL field selection (k8s.io/apiserver `cel.Escape`/`Unescape`):
 * `__` → `__underscores__`, `.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`, and a name that
 * is exactly a CEL reserved word → `__{word}__`. Names outside `[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*` are
 * not accessible.
 */

/** The identifiers CEL reserves. */
export const celReservedSymbols: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import',
  'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/** The CEL identifier of a property name, or `undefined` when the name cannot be accessed. */
export function escapeProperty(ident: string): string | undefined {
  if (ident.length === 0 || (ident[0] >= '0' && ident[0] <= '9')) return undefined;
  if (celReservedSymbols.has(ident)) return `__${ident}__`;
  let out = '';
  for (let i = 0; i < ident.length; i++) {
    const c = ident[i];
    if (c === '_' && ident[i + 1] === '_') {
      out += '__underscores__';
      i++;
    } else if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else if (/[a-zA-Z0-9_]/.test(c)) out += c;
    else return undefined;
  }
  return out;
}

/** The property name of an escaped CEL identifier, or `undefined` for an invalid escape. */
export function unescapeProperty(escaped: string): string | undefined {
  if (!escaped.includes('__')) return escaped;
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (s) => {
    const inner = s.slice(2, -2);
    switch (inner) {
      case 'underscores': return '__';
      case 'dot': return '.';
      case 'dash': return '-';
      case 'slash': return '/';
      default:
        if (celReservedSymbols.has(inner)) {
          if (s.length !== escaped.length) ok = false;
          return inner;
        }
        ok = false;
        return '';
    }
  });
  return ok ? out : undefined;
}
