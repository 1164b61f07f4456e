/**
 * The small JSONPath subset that printer columns and scale paths use: `.a.b`, `.a['b.c']`, `.a[0]`,
 * `.a[?(@.type=="Ready")].status` (filters on equality). Evaluates to every match.
 */

type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' } | { kind: 'filter'; path: string[]; value: string };

const cache = new Map<string, Step[] | null>();

/** Parses a path; `null` when it is not in the supported subset. */
export function parsePath(path: string): Step[] | null {
  const hit = cache.get(path);
  if (hit !== undefined) return hit;
  const steps = parse(path.trim().replace(/^\{(.*)\}$/, '$1'));
  if (cache.size < 10_000) cache.set(path, steps);
  return steps;
}

function parse(p: string): Step[] | null {
  const steps: Step[] = [];
  let i = 0;
  if (p.startsWith('$')) i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      i++;
      let j = i;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      if (j === i) return null;
      steps.push({ kind: 'field', name: p.slice(i, j) });
      i = j;
    } else if (p[i] === '[') {
      const end = findClose(p, i);
      if (end < 0) return null;
      const inner = p.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const m = /^\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)$/.exec(inner);
        if (!m) return null;
        steps.push({ kind: 'filter', path: m[1].slice(1).split('.'), value: m[2] ?? m[3] });
      }
    } else {
      return null;
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

/** Every value the path selects in `obj` (empty when none). */
export function evaluatePath(obj: unknown, path: string): unknown[] {
  const steps = parsePath(path);
  if (steps === null) return [];
  let cur: unknown[] = [obj];
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (v === null || typeof v !== 'object') continue;
      if (s.kind === 'field') {
        if (!Array.isArray(v) && Object.hasOwn(v, s.name)) next.push((v as Record<string, unknown>)[s.name]);
      } else if (Array.isArray(v)) {
        if (s.kind === 'index') {
          const idx = s.index < 0 ? v.length + s.index : s.index;
          if (idx >= 0 && idx < v.length) next.push(v[idx]);
        } else if (s.kind === 'all') {
          next.push(...v);
        } else {
          for (const item of v) {
            let x: unknown = item;
            for (const f of s.path) x = x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[f] : undefined;
            if (typeof x === 'string' ? x === s.value : String(x) === s.value) next.push(item);
          }
        }
      } else if (s.kind === 'all') {
        next.push(...Object.values(v));
      }
    }
    cur = next;
  }
  return cur;
}

/** The single value at a simple path (`.spec.replicas`), or undefined. */
export function getPath(obj: unknown, path: string): unknown {
  const r = evaluatePath(obj, path);
  return r.length > 0 ? r[0] : undefined;
}

/** Sets the value at a simple field path (`.spec.replicas`), creating objects on the way. */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const steps = parsePath(path);
  if (steps === null || steps.length === 0 || steps.some((s) => s.kind !== 'field')) throw new Error(`not a simple path: ${path}`);
  let cur = obj;
  for (let i = 0; i < steps.length - 1; i++) {
    const name = (steps[i] as { name: string }).name;
    const next = cur[name];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[name] = {};
    cur = cur[name] as Record<string, unknown>;
  }
  cur[(steps[steps.length - 1] as { name: string }).name] = value;
}
