/**
 * The part of Kubernetes JSONPath that printer columns use: `.field`, `['field']`, `[index]` and the
 * wildcards `[*]` and `.*`, evaluated to the list of values found (none for a missing field). Paths with
 * other syntax (filters, recursive descent, slices) find nothing.
 *
 * @see https://kubernetes.io/docs/reference/kubectl/jsonpath/
 */

type Segment = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' };

/** Parses a printer column path; `undefined` when it uses syntax this evaluator does not support. */
export function parseJSONPath(path: string): Segment[] | undefined {
  let text = path.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  const segments: Segment[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '.') {
      if (text[i + 1] === '.') return undefined;
      if (text[i + 1] === '*') {
        segments.push({ kind: 'all' });
        i += 2;
        continue;
      }
      const match = /^[^.[\]]+/.exec(text.slice(i + 1));
      if (match === null) {
        if (i + 1 === text.length && segments.length === 0) return segments;
        return undefined;
      }
      segments.push({ kind: 'field', name: match[0] });
      i += 1 + match[0].length;
    } else if (ch === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) return undefined;
      const inner = text.slice(i + 1, end).trim();
      if (inner === '*') segments.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) segments.push({ kind: 'index', index: Number(inner) });
      else if (/^'[^']*'$/.test(inner) || /^"[^"]*"$/.test(inner)) segments.push({ kind: 'field', name: inner.slice(1, -1) });
      else return undefined;
      i = end + 1;
    } else {
      return undefined;
    }
  }
  return segments;
}

/** The values a path finds in a value, in document order. */
export function findJSONPath(value: unknown, path: string): unknown[] {
  const segments = parseJSONPath(path);
  if (segments === undefined) return [];
  let current: unknown[] = [value];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const v of current) {
      if (segment.kind === 'field') {
        if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, segment.name)) {
          next.push((v as Record<string, unknown>)[segment.name]);
        }
      } else if (segment.kind === 'index') {
        if (Array.isArray(v)) {
          const index = segment.index < 0 ? v.length + segment.index : segment.index;
          if (index >= 0 && index < v.length) next.push(v[index]);
        }
      } else if (Array.isArray(v)) {
        next.push(...v);
      } else if (typeof v === 'object' && v !== null) {
        next.push(...Object.values(v));
      }
    }
    current = next;
  }
  return current;
}
