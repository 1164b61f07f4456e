/**
 * The JSONPath subset that a CRD's `additionalPrinterColumns` and scale subresource paths use:
 * `.a.b`, `.a['b.c']`, `.a[0]`, `.a[-1]`, `.a[*]`, `.a.*`, and equality filters `.a[?(@.type=="Ready")]`,
 * optionally wrapped in `{…}` and starting with `$`. Other syntax (recursive descent, slices, unions)
 * is not supported and finds nothing.
 *
 * @see https://kubernetes.io/docs/reference/kubectl/jsonpath/
 */

/** One step of a parsed path. */
export type JSONPathStep =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: string[]; value: string };

const cache = new Map<string, JSONPathStep[] | undefined>();

/** Parses a path; `undefined` when it uses syntax outside the supported subset. Parses are cached. */
export function parseJSONPath(path: string): JSONPathStep[] | undefined {
  if (cache.has(path)) return cache.get(path);
  const steps = parse(path.trim().replace(/^\{(.*)\}$/, '$1').trim());
  if (cache.size < 10_000) cache.set(path, steps);
  return steps;
}

function parse(p: string): JSONPathStep[] | undefined {
  const steps: JSONPathStep[] = [];
  let i = p.startsWith('$') ? 1 : 0;
  if (p.slice(i) === '.') return steps;
  while (i < p.length) {
    if (p[i] === '.') {
      i++;
      if (p[i] === '*') {
        steps.push({ kind: 'all' });
        i++;
        continue;
      }
      let j = i;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      if (j === i) return undefined;
      steps.push({ kind: 'field', name: p.slice(i, j) });
      i = j;
    } else if (p[i] === '[') {
      const end = findClose(p, i);
      if (end < 0) return undefined;
      const inner = p.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'[^']*'$|^"[^"]*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const m = /^\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)$/.exec(inner);
        if (!m) return undefined;
        steps.push({ kind: 'filter', path: m[1].slice(1).split('.'), value: m[2] ?? m[3] });
      }
    } else {
      return undefined;
    }
  }
  return steps;
}

function findClose(p: string, open: number): number {
  let quote = '';
  for (let i = open + 1; i < p.length; i++) {
    const c = p[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ']') {
      return i;
    }
  }
  return -1;
}

/** Every value `path` selects in `value`, in document order (empty when none or unsupported). */
export function evaluateJSONPath(value: unknown, path: string): unknown[] {
  const steps = parseJSONPath(path);
  if (steps === undefined) return [];
  let cur: unknown[] = [value];
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (v === null || typeof v !== 'object') continue;
      if (s.kind === 'field') {
        if (!Array.isArray(v) && Object.hasOwn(v, s.name)) next.push((v as Record<string, unknown>)[s.name]);
      } else if (s.kind === 'all') {
        next.push(...(Array.isArray(v) ? v : Object.values(v)));
      } else if (Array.isArray(v)) {
        if (s.kind === 'index') {
          const idx = s.index < 0 ? v.length + s.index : s.index;
          if (idx >= 0 && idx < v.length) next.push(v[idx]);
        } else {
          for (const item of v) {
            let x: unknown = item;
            for (const f of s.path) x = x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[f] : undefined;
            if (typeof x === 'string' ? x === s.value : String(x) === s.value) next.push(item);
          }
        }
      }
    }
    cur = next;
  }
  return cur;
}
