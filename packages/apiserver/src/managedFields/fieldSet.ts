/**
 * Field sets as structured-merge-diff's `fieldpath.Set` holds them: a trie of path elements in which
 * each node says whether its own path is a member. Path elements are kept in their FieldsV1 spelling
 * (`f:name`, `k:{"name":"c"}`, `v:"a"`, `i:0`), which is also their identity.
 *
 * Every operation is iterative: a set is as deep as the object it describes, and objects nest up to
 * the apiserver's 10,000 levels.
 *
 * @see https://github.com/kubernetes-sigs/structured-merge-diff/tree/master/fieldpath
 */
import { KubeError, goQuote } from '@kubekit/core';

/** One node of a field set: whether its path is a member, and the sets below it by path element. */
export class FieldSet {
  /** Whether the path of this node is itself in the set. */
  member = false;
  /** The nodes below, by path element (FieldsV1 spelling). */
  readonly children = new Map<string, FieldSet>();

  /** The node below `pe`, created when missing. */
  child(pe: string): FieldSet {
    let c = this.children.get(pe);
    if (c === undefined) {
      c = new FieldSet();
      this.children.set(pe, c);
    }
    return c;
  }

  /** Whether this node has neither a member flag nor children (no deep check). */
  isEmptyShallow(): boolean {
    return !this.member && this.children.size === 0;
  }

  /** Whether the set has no member (empty nodes may linger until {@link pruneEmpty}). */
  isEmpty(): boolean {
    const stack: FieldSet[] = [this];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.member) return false;
      for (const c of n.children.values()) stack.push(c);
    }
    return true;
  }
}

/** Drops the nodes that hold no member below them (post-order, iterative); returns `set`. */
export function pruneEmpty(set: FieldSet): FieldSet {
  const order: [FieldSet, FieldSet | undefined, string][] = [];
  const stack: [FieldSet, FieldSet | undefined, string][] = [[set, undefined, '']];
  while (stack.length > 0) {
    const e = stack.pop()!;
    order.push(e);
    for (const [pe, c] of e[0].children) stack.push([c, e[0], pe]);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const [node, parent, pe] = order[i];
    if (parent !== undefined && !node.member && node.children.size === 0) parent.children.delete(pe);
  }
  return set;
}

/** A copy of a set. */
export function cloneSet(set: FieldSet): FieldSet {
  return union(set, new FieldSet());
}

/** Adds the members of `src` to `target` (mutates `target`). */
export function unionInto(target: FieldSet, src: FieldSet): FieldSet {
  const stack: [FieldSet, FieldSet][] = [[target, src]];
  while (stack.length > 0) {
    const [t, s] = stack.pop()!;
    if (s.member) t.member = true;
    for (const [pe, c] of s.children) stack.push([t.child(pe), c]);
  }
  return target;
}

/** The members of `a` or `b`. */
export function union(a: FieldSet, b: FieldSet): FieldSet {
  return unionInto(unionInto(new FieldSet(), a), b);
}

/** The members of `a` that are not members of `b` (`Set.Difference`: children of `b`'s members stay). */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  const out = new FieldSet();
  const stack: [FieldSet, FieldSet, FieldSet | undefined][] = [[out, a, b]];
  while (stack.length > 0) {
    const [o, x, y] = stack.pop()!;
    o.member = x.member && !(y?.member ?? false);
    for (const [pe, c] of x.children) stack.push([o.child(pe), c, y?.children.get(pe)]);
  }
  return pruneEmpty(out);
}

/**
 * Removes the members of `b` from `a` in place (`Difference`, touching only the paths of `b`), dropping
 * the nodes of `a` left empty. Returns whether `a` changed.
 */
export function subtractInPlace(a: FieldSet, b: FieldSet): boolean {
  let changed = false;
  const visited: [FieldSet, FieldSet, string][] = [];
  const stack: [FieldSet, FieldSet][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (y.member && x.member && x !== a) { x.member = false; changed = true; }
    for (const [pe, yc] of y.children) {
      const xc = x.children.get(pe);
      if (xc === undefined) continue;
      visited.push([x, xc, pe]);
      stack.push([xc, yc]);
    }
  }
  // Children were visited after their parents: drop empty nodes deepest first.
  for (let i = visited.length - 1; i >= 0; i--) {
    const [parent, node, pe] = visited[i];
    if (!node.member && node.children.size === 0) parent.children.delete(pe);
  }
  return changed;
}

/** The members of both `a` and `b`. */
export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const out = new FieldSet();
  const stack: [FieldSet, FieldSet, FieldSet][] = [[out, a, b]];
  while (stack.length > 0) {
    const [o, x, y] = stack.pop()!;
    o.member = x.member && y.member;
    for (const [pe, c] of x.children) {
      const d = y.children.get(pe);
      if (d !== undefined) stack.push([o.child(pe), c, d]);
    }
  }
  return pruneEmpty(out);
}

/** The members of `a` that are neither members of `b` nor below one (`Set.RecursiveDifference`). */
export function recursiveDifference(a: FieldSet, b: FieldSet): FieldSet {
  const out = new FieldSet();
  const stack: [FieldSet, FieldSet, FieldSet | undefined][] = [[out, a, b]];
  while (stack.length > 0) {
    const [o, x, y] = stack.pop()!;
    if (y?.member === true) continue;
    o.member = x.member;
    for (const [pe, c] of x.children) stack.push([o.child(pe), c, y?.children.get(pe)]);
  }
  return pruneEmpty(out);
}

/** The FieldsV1 form of a set (`{"f:spec": {".": {}, "f:color": {}}}`), keys in `PathElement.Compare` order. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const stack: [FieldSet, Record<string, unknown>][] = [[set, root]];
  while (stack.length > 0) {
    const [node, out] = stack.pop()!;
    const kids: [string, FieldSet][] = [];
    for (const kid of node.children) if (kid[1].member || kid[1].children.size > 0) kids.push(kid);
    if (node.member && kids.length > 0 && out !== root) out['.'] = {};
    if (kids.length > 1) sortPathElements(kids);
    // Path elements start with `f:`, `k:`, `v:` or `i:`: never a key with a meaning to objects.
    for (const [pe, c] of kids) {
      const o: Record<string, unknown> = {};
      out[pe] = o;
      stack.push([c, o]);
    }
  }
  return root;
}

/**
 * Read bodies of key and value path elements: the same items (`k:{"name":"http"}`) come back write
 * after write. Bounded: short elements only, emptied when full.
 */
const bodies = new Map<string, unknown>();
const maxBodies = 4096;
const maxCachedLength = 256;

/** What {@link comparePathElements} compares of an element: the key's entries, the value, the index, or the name. */
function pathElementBody(pe: string): unknown {
  switch (pe[0]) {
    case 'k': case 'v': {
      let body = bodies.get(pe);
      if (body === undefined && !bodies.has(pe)) {
        const parsed = JSON.parse(pe.slice(2)) as unknown;
        body = pe[0] === 'k' ? Object.entries(parsed as Record<string, unknown>) : parsed;
        if (pe.length <= maxCachedLength) {
          if (bodies.size >= maxBodies) bodies.clear();
          bodies.set(pe, body);
        }
      }
      return body;
    }
    case 'i': return Number(pe.slice(2));
    default: return pe.slice(2);
  }
}

/**
 * Sorts `[path element, …]` pairs in `PathElement.Compare` order, in place. Field names (nearly every
 * node's children) compare as strings, and are often in order already; keys and values are parsed
 * once per element, not once per comparison.
 */
export function sortPathElements<T>(items: [string, T][]): void {
  let fields = true;
  let sorted = true;
  for (let i = 0; i < items.length; i++) {
    const pe = items[i][0];
    if (pe.charCodeAt(0) !== 0x66 /* f */) { fields = false; break; }
    if (i > 0 && items[i - 1][0] > pe) sorted = false;
  }
  if (fields) {
    // Same `f:` prefix: comparing whole strings compares the names.
    if (!sorted) items.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return;
  }
  const decorated = items.map((item) => ({ item, body: pathElementBody(item[0]) }));
  decorated.sort((a, b) => comparePathElementsParsed(a.item[0], b.item[0], a.body, b.body));
  for (let i = 0; i < items.length; i++) items[i] = decorated[i].item;
}
/**
 * Reads a FieldsV1 object. Unknown path element prefixes are an error, as in `SetFromValue`.
 *
 * @throws KubeError `BadRequest` for a malformed FieldsV1
 */
export function fromFieldsV1(fields: unknown): FieldSet {
  const root = new FieldSet();
  if (fields === undefined || fields === null) return root;
  const stack: [unknown, FieldSet][] = [[fields, root]];
  while (stack.length > 0) {
    const [v, node] = stack.pop()!;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw KubeError.badRequest('error decoding managed fields: expected an object in FieldsV1');
    const keys = Object.keys(v);
    if (keys.length === 0 && node !== root) node.member = true;
    for (const k of keys) {
      if (k === '.') { node.member = true; continue; }
      if (!/^[fkvi]:/.test(k)) throw KubeError.badRequest(`error decoding managed fields: unknown path element ${goQuote(k)}`);
      stack.push([(v as Record<string, unknown>)[k], node.child(k)]);
    }
  }
  return root;
}

/** A JSON value as structured-merge-diff's `value.ToString` prints it in paths. */
function valueString(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** A path element in the form of `PathElement.String()` (`.name`, `[name="c"]`, `[="a"]`, `[0]`). */
export function pathElementString(pe: string): string {
  const body = pe.slice(2);
  switch (pe[0]) {
    case 'f': return `.${body}`;
    case 'k': {
      const key = JSON.parse(body) as Record<string, unknown>;
      return `[${Object.keys(key).map((k) => `${k}=${valueString(key[k])}`).join(',')}]`;
    }
    case 'v': return `[=${valueString(JSON.parse(body))}]`;
    default: return `[${body}]`;
  }
}

/** The member paths of a set in structured-merge-diff's iteration order, as `Path.String()` spells them. */
export function memberPaths(set: FieldSet): string[] {
  const out: string[] = [];
  // Each level lists its members first, then descends into its children, both in path element order.
  const stack: [FieldSet, string][] = [[set, '']];
  while (stack.length > 0) {
    const [node, prefix] = stack.pop()!;
    const kids = [...node.children];
    sortPathElements(kids);
    for (const [pe, c] of kids) if (c.member) out.push(prefix + pathElementString(pe));
    for (let i = kids.length - 1; i >= 0; i--) {
      const [pe, c] = kids[i];
      if (c.children.size > 0) stack.push([c, prefix + pathElementString(pe)]);
    }
  }
  return out;
}

const kindOrder: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

function typeRank(v: unknown): number {
  if (typeof v === 'number' || typeof v === 'bigint') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5;
}

/** `value.Compare` for the scalars that make up keys and set values (numbers, strings, booleans, null). */
function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  if (ra === 1) return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  if (ra === 2) return a === b ? 0 : a === false ? -1 : 1;
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** `PathElement.Compare`: field names, then keys, then values, then indexes. */
export function comparePathElements(a: string, b: string): number {
  return comparePathElementsParsed(a, b, pathElementBody(a), pathElementBody(b));
}

/** {@link comparePathElements} with each element's body already read (the name, the key's entries, the value or the index). */
function comparePathElementsParsed(a: string, b: string, pa: unknown, pb: unknown): number {
  if (a[0] !== b[0]) return kindOrder[a[0]] - kindOrder[b[0]];
  switch (a[0]) {
    case 'f': return (pa as string) < (pb as string) ? -1 : (pa as string) > (pb as string) ? 1 : 0;
    case 'i': return (pa as number) - (pb as number);
    case 'v': return compareValues(pa, pb);
    default: return compareKeys(pa as [string, unknown][], pb as [string, unknown][]);
  }
}

function compareKeys(kx: [string, unknown][], ky: [string, unknown][]): number {
  for (let i = 0; i < Math.min(kx.length, ky.length); i++) {
    if (kx[i][0] !== ky[i][0]) return kx[i][0] < ky[i][0] ? -1 : 1;
    const c = compareValues(kx[i][1], ky[i][1]);
    if (c !== 0) return c;
  }
  return kx.length - ky.length;
}
