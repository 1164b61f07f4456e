// Simple JSON paths (`.spec.color`, `.spec['app-name']`), parsed once and compiled into readers that
// load the properties directly. This is the grammar `selectableFields[].jsonPath` validation accepts
// (apiextensions' `cel.ValidFieldPath` without array notation); the apiserver then evaluates it with
// client-go's jsonpath and `AllowMissingKeys(true)`, where a step into anything that is not an object
// finds nothing.

/** Reads a value from an object; `undefined` when the path finds nothing. Never throws on JSON data. */
export type Reader = (object: unknown) => unknown;

/** Why a path is not a simple path, as text for an error message. */
export type PathProblem = string;

/**
 * Splits a simple JSON path into property names, or returns a problem text. Names are what the
 * apiserver's scanner sees between the delimiters `.`, `[` and `]`; bracketed names are single-quoted.
 */
export function parseSimplePath(path: string): string[] | PathProblem {
  const tokens = path.split(/([.[\]])/).filter((t) => t !== '');
  const names: string[] = [];
  let i = 0;
  if (tokens.length === 0) return 'empty JSON path';
  while (i < tokens.length) {
    const tok = tokens[i++];
    if (tok === '.') {
      const name = tokens[i++];
      if (name === undefined) return 'unexpected end of JSON path';
      if (name === '.' || name === '[' || name === ']') return `expected a field name after "." but got ${name}`;
      const bad = badNameCharacter(name);
      if (bad !== undefined) return `unsupported character ${JSON.stringify(bad)} in field name ${JSON.stringify(name)}`;
      names.push(name);
    } else if (tok === '[') {
      const quoted = tokens[i++];
      if (quoted === undefined) return 'unexpected end of JSON path';
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) {
        return `expected single quoted string but got ${quoted}`;
      }
      const name = quoted.slice(1, -1);
      if (name === '' || name.includes("'")) return `unsupported bracketed field name ${quoted}`;
      const bad = badNameCharacter(name);
      if (bad !== undefined) return `unsupported character ${JSON.stringify(bad)} in field name ${JSON.stringify(name)}`;
      const close = tokens[i++];
      if (close !== ']') return close === undefined ? 'unexpected end of JSON path' : `expected ] but got ${close}`;
      names.push(name);
    } else {
      return `expected [ or . but got: ${tok}`;
    }
  }
  return names;
}

// client-go's jsonpath ends a field name at these characters (or treats `\\` as an escape), so a
// path holding them does not read the property it names upstream; kubekit refuses such paths
// instead of reading something else.
const unsafeInName = /[\s\\{},$@]/u;

function badNameCharacter(name: string): string | undefined {
  if (name === '*') return '*';
  const m = unsafeInName.exec(name);
  return m === null ? undefined : m[0];
}

// Property names that an object inherits from Object.prototype: reading them must check that the
// property is the object's own, or `.spec.constructor` would find Object.
const inherited = new Set<string>([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

type Step = (o: unknown) => unknown;

/** One step into a JSON object: only plain objects have properties; arrays and scalars find nothing. */
function stepFor(name: string): Step {
  if (inherited.has(name)) {
    return (o) => (typeof o === 'object' && o !== null && !Array.isArray(o) && Object.hasOwn(o, name)
      ? (o as Record<string, unknown>)[name]
      : undefined);
  }
  return (o) => (typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>)[name] : undefined);
}

/**
 * Compiles property names into one reader. The reader is generated code with each name as a
 * constant (`o["spec"]`), so every path gets its own monomorphic property loads instead of sharing
 * one megamorphic keyed load; names are embedded as JSON string literals, which cannot act as code.
 * Where code generation is disallowed, unrolled closures do the same reads.
 */
export function compileReader(names: readonly string[]): Reader {
  try {
    return generateReader(names);
  } catch {
    return closureReader(names);
  }
}

/** The generated reader (see {@link compileReader}); throws where code generation is disallowed. */
export function generateReader(names: readonly string[]): Reader {
  let body = "'use strict'; let v = o;\n";
  for (const name of names) {
    const key = JSON.stringify(name);
    const own = inherited.has(name) ? ` || !Object.hasOwn(v, ${key})` : '';
    body += `if (typeof v !== 'object' || v === null || Array.isArray(v)${own}) return undefined;\nv = v[${key}];\n`;
  }
  body += 'return v;';
  return new Function('o', body) as Reader;
}

/** The reader used where code generation is disallowed. */
export function closureReader(names: readonly string[]): Reader {
  if (names.some((n) => inherited.has(n))) {
    const steps = names.map(stepFor);
    return (o) => {
      let v = o;
      for (let i = 0; i < steps.length && v !== undefined; i++) v = steps[i](v);
      return v;
    };
  }
  // Direct reads: none of the names is inherited, so `o[name]` is the own property or undefined.
  const isObj = (o: unknown): o is Record<string, unknown> => typeof o === 'object' && o !== null && !Array.isArray(o);
  switch (names.length) {
    case 1: {
      const [a] = names;
      return (o) => (isObj(o) ? o[a] : undefined);
    }
    case 2: {
      const [a, b] = names;
      return (o) => {
        if (!isObj(o)) return undefined;
        const x = o[a];
        return isObj(x) ? x[b] : undefined;
      };
    }
    case 3: {
      const [a, b, c] = names;
      return (o) => {
        if (!isObj(o)) return undefined;
        const x = o[a];
        if (!isObj(x)) return undefined;
        const y = x[b];
        return isObj(y) ? y[c] : undefined;
      };
    }
    default:
      return (o) => {
        let v: unknown = o;
        for (const n of names) {
          if (!isObj(v)) return undefined;
          v = v[n];
        }
        return v;
      };
  }
}
