/**
 * A port of apiextensions-apiserver's `cel.ValidFieldPath`: resolves a relative JSON path (`.spec.x`,
 * `.map['key']`) in a structural schema, with its tokenizer and its exact error texts. Used for
 * `selectableFields` (without array notation) and for `x-kubernetes-validations[].fieldPath`.
 */
import type { Schema } from './model.js';

/** One step of a resolved path: a property name or a map key. */
export interface PathSegment {
  name: string;
  isKey: boolean;
}

/** The result of a resolution: the canonical path and the schema found there, or an error text. */
export type FieldPathResolution =
  | { ok: true; segments: PathSegment[]; schema: Schema | undefined }
  | { ok: false; error: string };

/** Go's `field.Path.String()` of resolved segments (`spec.labels[app]`). */
export function segmentsToString(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (s.isKey) out += `[${s.name}]`;
    else out += out === '' ? s.name : `.${s.name}`;
  }
  return out;
}

/** Splits a path into tokens as the upstream `bufio.Scanner` split function does. */
function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let pos = 0;
  while (pos < path.length) {
    if (path[pos] === "'") {
      let end = -1;
      for (let i = pos + 1; i < path.length; i++) {
        if (path[i] === "'" && path[i - 1] !== '\\') {
          end = i;
          break;
        }
      }
      const stop = end === -1 ? path.length : end + 1;
      tokens.push(path.slice(pos, stop));
      pos = stop;
      continue;
    }
    let i = pos;
    while (i < path.length && path[i] !== '.' && path[i] !== '[' && path[i] !== ']') i++;
    if (i === pos) {
      tokens.push(path[pos]);
      pos++;
    } else {
      tokens.push(path.slice(pos, i));
      pos = i;
    }
  }
  return tokens;
}

const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** The upstream `unescapeSingleQuote`. */
function unescapeSingleQuote(s: string): { value: string } | { error: string } {
  let error: string | undefined;
  // Go's regexp `\\.` matches a backslash and one rune; `.` does not match a newline.
  const value = s.replace(/\\[^\n]/gu, (m) => {
    const r = escapes[m.slice(1)];
    if (r !== undefined) return r;
    error = `invalid escape char ${m}`;
    return '';
  });
  return error === undefined ? { value } : { error };
}

function hasOwn(m: ReadonlyMap<string, Schema> | undefined, k: string): Schema | undefined {
  return m?.get(k);
}

/**
 * Resolves `jsonPath` in `schema`. Array notation (`['key']`) is accepted only when `allowArrayNotation`.
 */
export function validFieldPath(jsonPath: string, root: Schema | undefined, allowArrayNotation: boolean): FieldPathResolution {
  const segments: PathSegment[] = [];
  let schema = root;
  const tokens = tokenize(jsonPath);
  let i = 0;
  const next = (): string | undefined => (i < tokens.length ? tokens[i++] : undefined);

  const step = (name: string): string | undefined => {
    // A nil schema here makes the upstream code dereference a nil pointer; report it as unresolvable.
    if (schema === undefined) return 'does not refer to a valid field';
    // The structural schema keeps `properties` only when non-empty.
    if (schema.properties !== undefined && schema.properties.size > 0) {
      segments.push({ name, isKey: false });
      const found = hasOwn(schema.properties, name);
      if (found === undefined) return 'does not refer to a valid field';
      schema = found;
    } else if (schema.additionalProperties !== undefined) {
      segments.push({ name, isKey: true });
      schema = schema.additionalProperties.schema;
    } else {
      return 'does not refer to a valid field';
    }
    return undefined;
  };

  for (let tok = next(); tok !== undefined; tok = next()) {
    if (tok === '[') {
      if (!allowArrayNotation) return { ok: false, error: 'array notation is not allowed' };
      const quoted = next();
      if (quoted === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") {
        return { ok: false, error: `expected single quoted string but got ${quoted}` };
      }
      const unescaped = unescapeSingleQuote(quoted.slice(1, -1));
      if ('error' in unescaped) return { ok: false, error: `invalid string literal: ${unescaped.error}` };
      const err = step(unescaped.value);
      if (err !== undefined) return { ok: false, error: err };
      const close = next();
      if (close === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (close !== ']') return { ok: false, error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = next();
      if (name === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err !== undefined) return { ok: false, error: err };
    } else {
      return { ok: false, error: `expected [ or . but got: ${tok}` };
    }
  }
  return { ok: true, segments, schema };
}
