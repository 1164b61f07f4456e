/**
 * The typed walks of server-side apply over JSON objects, as structured-merge-diff's `typed` package
 * performs them: the field set of an applied configuration (`ToFieldSet`), the comparison of two
 * objects (`Compare`: added, modified and removed paths), the apply merge (`Merge`, the configuration's
 * values win; associative lists merged by key in the configuration's order), and the removal of items
 * (`RemoveItems`, where a map or list emptied by the removal becomes null).
 *
 * Every walk is iterative (an explicit stack), so objects nested 10,000 levels deep are fine.
 *
 * @see https://github.com/kubernetes-sigs/structured-merge-diff/tree/master/typed
 */
import { KubeError } from '@kubekit/core';
import { FieldSet, pathElementString } from './fieldSet.js';
import { builtinAtomic, builtinChild, builtinList, concrete, deducedType, type ListType, type MapType, type OpenAPIType, type TypeNode } from './schema.js';

type JSONObject = Record<string, unknown>;

function isObject(v: unknown): v is JSONObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function setOwn(o: JSONObject, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** Structural equality of JSON values, iterative, key order ignored. */
export function equalJSON(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') {
      if ((typeof x === 'bigint' || typeof y === 'bigint') && typeof x !== 'object' && typeof y !== 'object' && String(x) === String(y)) continue;
      return false;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ya = y as unknown[];
      if (x.length !== ya.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], ya[i]]);
      continue;
    }
    const xo = x as JSONObject;
    const yo = y as JSONObject;
    const xk = Object.keys(xo);
    if (xk.length !== Object.keys(yo).length) return false;
    for (const k of xk) {
      if (!Object.hasOwn(yo, k)) return false;
      stack.push([xo[k], yo[k]]);
    }
  }
  return true;
}

/** How a value is walked at a type: a leaf, a granular map, or a granular list. */
type Shape = { kind: 'leaf' } | { kind: 'map'; type: TypeNode } | { kind: 'list'; list: ListType };

const leaf: Shape = { kind: 'leaf' };

// The shapes of a type, made once per type object (the walks ask at every node).
const mapShapes = new WeakMap<object, Shape>();
const listShapes = new WeakMap<object, Shape>();

function mapShape(t: Exclude<TypeNode, OpenAPIType>): Shape {
  if (t.kind === 'builtin') return { kind: 'map', type: t };
  let shape = mapShapes.get(t);
  if (shape === undefined) {
    shape = { kind: 'map', type: t };
    mapShapes.set(t, shape);
  }
  return shape;
}

function listShape(t: ListType): Shape {
  let shape = listShapes.get(t);
  if (shape === undefined) {
    shape = { kind: 'list', list: t };
    listShapes.set(t, shape);
  }
  return shape;
}

/** The shape of `value` (or, when absent, of `other`) at `t`; mismatches between value and type are leaves. */
function shapeOf(type: TypeNode, v: unknown): Shape {
  const t = concrete(type);
  switch (t.kind) {
    case 'scalar': return leaf;
    case 'map': return isObject(v) && !t.atomic ? mapShape(t) : leaf;
    case 'list': return Array.isArray(v) && t.listType !== 'atomic' ? listShape(t) : leaf;
    case 'deduced': return isObject(v) ? mapShape(t) : leaf;
    case 'builtin': {
      if (isObject(v)) return builtinAtomic(t) ? leaf : mapShape(t);
      if (Array.isArray(v)) {
        // Built-in positions are made afresh at every step (their names come from the data): not cached.
        const list = builtinList(t);
        return list.listType === 'atomic' ? leaf : { kind: 'list', list };
      }
      return leaf;
    }
  }
}

/**
 * The shape two values are walked in together: null or absent on one side takes the other side's
 * shape (a null where a map is expected is an empty map, as `mapValue` reads it); two different shapes,
 * or neither side a container, make a leaf.
 */
function pairShape(t: TypeNode, l: unknown, r: unknown): Shape {
  const ls = l === undefined || l === null ? undefined : shapeOf(t, l);
  const rs = r === undefined || r === null ? undefined : shapeOf(t, r);
  if (ls === undefined && rs === undefined) return leaf;
  if (ls !== undefined && rs !== undefined && ls.kind !== rs.kind) return leaf;
  return rs ?? ls!;
}

/** The type of key `k` in a map-shaped type (what the walks that need no more than the type ask). */
function fieldType(type: TypeNode, k: string): TypeNode {
  const t = concrete(type);
  if (t.kind === 'map') return t.fields?.get(k) ?? t.element ?? deducedType;
  if (t.kind === 'builtin') return builtinChild(t, k);
  return deducedType;
}

/** The type of key `k` in a map-shaped type, and whether `k` is a declared field there. */
function fieldOf(type: TypeNode, k: string): [TypeNode, boolean] {
  const t = concrete(type);
  if (t.kind === 'map') {
    const f = t.fields?.get(k);
    if (f !== undefined) return [f, true];
    return [t.element ?? deducedType, false];
  }
  if (t.kind === 'builtin') return [builtinChild(t, k), !t.mapKeys];
  return [deducedType, false];
}

/** The key defaults of an associative list (from the list, else from its item type's defaults). */
function keyDefault(list: ListType, key: string): unknown {
  const d = list.keyDefaults?.get(key);
  if (d !== undefined) return d;
  const element = concrete(list.element);
  return element.kind === 'map' ? (element as MapType).defaults?.get(key) : undefined;
}

const sortedListKeys = new WeakMap<ListType, readonly string[]>();

/** A property name JavaScript orders as an array index (before every other own key). */
const arrayIndex = /^(0|[1-9][0-9]{0,9})$/;

/** An associative list's key names in order, sorted once per list type. */
function sortedKeys(list: ListType): readonly string[] {
  let keys = sortedListKeys.get(list);
  if (keys === undefined) {
    keys = [...list.keys].sort();
    sortedListKeys.set(list, keys);
  }
  return keys;
}

/** The path element of a list item: `v:` for sets, `k:` for associative lists, `i:` otherwise. */
export function itemPathElement(list: ListType, item: unknown, index: number): string {
  if (list.listType === 'set') return `v:${JSON.stringify(item)}`;
  if (list.listType === 'map' && list.keys.length > 0) {
    if (!isObject(item)) throw KubeError.badRequest(`associative list with keys has an element that is not a map type`);
    // The JSON of the key fields in sorted order, written out directly; names that are array indexes
    // would come first in an object's own order, so those keys are written through an object.
    let text = '';
    let indexLike = false;
    for (const k of sortedKeys(list)) {
      const v = Object.hasOwn(item, k) ? item[k] : keyDefault(list, k);
      if (v === undefined) continue;
      if (arrayIndex.test(k)) indexLike = true;
      text += `${text === '' ? '' : ','}${JSON.stringify(k)}:${JSON.stringify(v)}`;
    }
    if (text === '') throw KubeError.badRequest('associative list with keys has an element that omits all key fields');
    if (!indexLike) return `k:{${text}}`;
    const key: JSONObject = {};
    for (const k of sortedKeys(list)) {
      const v = Object.hasOwn(item, k) ? item[k] : keyDefault(list, k);
      if (v !== undefined) setOwn(key, k, v);
    }
    return `k:${JSON.stringify(key)}`;
  }
  return `i:${index}`;
}

/** The items of a granular list by path element (the first of duplicates wins), in order. */
function indexItems(list: ListType, items: unknown[] | undefined): { pes: string[]; byPE: Map<string, unknown> } {
  const pes: string[] = [];
  const byPE = new Map<string, unknown>();
  for (let i = 0; i < (items?.length ?? 0); i++) {
    const pe = itemPathElement(list, items![i], i);
    pes.push(pe);
    if (!byPE.has(pe)) byPE.set(pe, items![i]);
  }
  return { pes, byPE };
}

/**
 * The field set of an applied configuration (`TypedValue.ToFieldSet`): scalars, atomic values, list
 * items, map entries that are not declared fields, and empty or null values are members.
 */
export function toFieldSet(value: unknown, type: TypeNode): FieldSet {
  const root = new FieldSet();
  const undeclared: string[] = [];
  const stack: [unknown, TypeNode, FieldSet, PathLink | undefined][] = [[value, type, root, undefined]];
  while (stack.length > 0) {
    const [v, t, node, path] = stack.pop()!;
    const shape = shapeOf(t, v);
    if (shape.kind === 'leaf') {
      if (node !== root) node.member = true;
      continue;
    }
    if (shape.kind === 'map') {
      const o = v as JSONObject;
      for (const k of Object.keys(o)) {
        const [ft, declared] = fieldOf(shape.type, k);
        const link: PathLink = { pe: `f:${k}`, parent: path };
        const st = concrete(shape.type);
        if (!declared && st.kind === 'map' && st.element === undefined) {
          undeclared.push(pathString(link));
          continue;
        }
        const c = node.child(link.pe);
        const cv = o[k];
        if (cv === null || (isObject(cv) && hasNoKeys(cv)) || !declared) c.member = true;
        stack.push([cv, ft, c, link]);
      }
      continue;
    }
    const items = v as unknown[];
    for (let i = 0; i < items.length; i++) {
      const pe = itemPathElement(shape.list, items[i], i);
      const c = node.child(pe);
      c.member = true;
      stack.push([items[i], shape.list.element, c, { pe, parent: path }]);
    }
  }
  if (undeclared.length > 0) throw new UndeclaredFieldsError(undeclared.sort());
  return root;
}

/** A path, as a chain from the leaf up (cheap to extend at every level of a deep walk). */
interface PathLink {
  pe: string;
  parent: PathLink | undefined;
}

function pathString(link: PathLink): string {
  const parts: string[] = [];
  for (let l: PathLink | undefined = link; l !== undefined; l = l.parent) parts.push(pathElementString(l.pe));
  return parts.reverse().join('');
}

/**
 * Fields of an applied configuration that its schema does not declare: structured-merge-diff cannot
 * type the configuration (`field not declared in schema`), and the apiserver answers 500.
 */
export class UndeclaredFieldsError extends Error {
  constructor(readonly paths: string[]) {
    const errs = paths.map((p) => `${p}: field not declared in schema`);
    super(errs.length === 1 ? errs[0] : ['errors:', ...errs.map((e) => `  ${e}`)].join('\n'));
    this.name = 'UndeclaredFieldsError';
  }
}

/** What changed between two objects (`typed.Comparison`). */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * Compares `lhs` (old) with `rhs` (new), as `TypedValue.Compare`: every node of an added (removed)
 * subtree is added (removed); leaves present on both sides whose values differ are modified.
 */
export function compareObjects(lhs: unknown, rhs: unknown, type: TypeNode): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  // Nodes of the three result sets are made only where something is marked (most of a compared
  // object is unchanged): each walk position carries its path as a lazily materialised chain, itself
  // made only for positions that are marked or have children. The stack is kept as parallel arrays.
  const ls: unknown[] = [lhs];
  const rs: unknown[] = [rhs];
  const ts: TypeNode[] = [type];
  const parents: (LazyPath | undefined)[] = [undefined];
  const pes: (string | undefined)[] = [undefined];
  const mark = (which: 0 | 1 | 2, path: LazyPath): void => { materialize(which === 0 ? c.added : which === 1 ? c.modified : c.removed, which, path).member = true; };
  while (ls.length > 0) {
    const l = ls.pop();
    const r = rs.pop();
    const t = ts.pop()!;
    const parent = parents.pop();
    const pe = pes.pop();
    let shape = pairShape(t, l, r);
    // Two empty containers compare as leaves (the empty/null distinction is kept).
    if (shape.kind === 'map' && emptyish(l) && emptyish(r)) shape = leaf;
    if (shape.kind === 'list' && emptyList(l) && emptyList(r)) shape = leaf;
    const marked = pe === undefined ? -1 : l === undefined ? 0 : r === undefined ? 2 : shape.kind === 'leaf' && !equalJSON(l, r) ? 1 : -1;
    if (marked < 0 && shape.kind === 'leaf') continue;
    const path: LazyPath | undefined = pe === undefined ? undefined : { pe, parent };
    if (marked >= 0) mark(marked as 0 | 1 | 2, path!);
    if (shape.kind === 'leaf') continue;
    if (shape.kind === 'map') {
      const lo = isObject(l) ? l : {};
      const ro = isObject(r) ? r : {};
      for (const k of Object.keys(lo)) {
        ls.push(lo[k]); rs.push(Object.hasOwn(ro, k) ? ro[k] : undefined); ts.push(fieldType(shape.type, k)); parents.push(path); pes.push(`f:${k}`);
      }
      for (const k of Object.keys(ro)) {
        if (Object.hasOwn(lo, k)) continue;
        ls.push(undefined); rs.push(ro[k]); ts.push(fieldType(shape.type, k)); parents.push(path); pes.push(`f:${k}`);
      }
      continue;
    }
    const li = indexItems(shape.list, Array.isArray(l) ? l : undefined);
    const ri = indexItems(shape.list, Array.isArray(r) ? r : undefined);
    for (const item of new Set([...li.pes, ...ri.pes])) {
      ls.push(li.byPE.get(item)); rs.push(ri.byPE.get(item)); ts.push(shape.list.element); parents.push(path); pes.push(item);
    }
  }
  return c;
}

/** A walk position's path: its path element, its parent's (undefined at the root), and its nodes once made. */
interface LazyPath {
  readonly pe: string;
  readonly parent: LazyPath | undefined;
  /** The nodes made for this path in the added (0), modified (1) and removed (2) sets. */
  n0?: FieldSet;
  n1?: FieldSet;
  n2?: FieldSet;
}

function madeNode(p: LazyPath, which: 0 | 1 | 2): FieldSet | undefined {
  return which === 0 ? p.n0 : which === 1 ? p.n1 : p.n2;
}

function setMadeNode(p: LazyPath, which: 0 | 1 | 2, node: FieldSet): void {
  if (which === 0) p.n0 = node;
  else if (which === 1) p.n1 = node;
  else p.n2 = node;
}

/** The node of `set` at `path`, made along the way from the nearest ancestor made before (iterative). */
function materialize(set: FieldSet, which: 0 | 1 | 2, path: LazyPath): FieldSet {
  const own = madeNode(path, which);
  if (own !== undefined) return own;
  // Usually the parent's node is made already (a walk marks parents before children).
  const parentNode = path.parent === undefined ? set : madeNode(path.parent, which);
  if (parentNode !== undefined) {
    const node = parentNode.child(path.pe);
    setMadeNode(path, which, node);
    return node;
  }
  const chain: LazyPath[] = [];
  let node = set;
  for (let p: LazyPath | undefined = path; p !== undefined; p = p.parent) {
    const made = madeNode(p, which);
    if (made !== undefined) { node = made; break; }
    chain.push(p);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    node = node.child(chain[i].pe);
    setMadeNode(chain[i], which, node);
  }
  return node;
}

function emptyish(v: unknown): boolean {
  return v === undefined || v === null || (isObject(v) && hasNoKeys(v));
}

/** Whether an object has no own enumerable key (without making the array of its keys). */
function hasNoKeys(o: JSONObject): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
}

function emptyList(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/**
 * The apply merge (`TypedValue.Merge` with the configuration winning): maps are merged key by key,
 * granular lists item by item (shared items in the configuration's order, the live object's other
 * items kept where they stood), and leaves and atomic values taken from the configuration.
 * Returns a new value; neither input is changed.
 */
export function mergeObjects(live: unknown, config: unknown, type: TypeNode): unknown {
  let result: unknown;
  type Item = [unknown, unknown, TypeNode, (v: unknown) => void];
  const stack: Item[] = [[live, config, type, (v) => { result = v; }]];
  while (stack.length > 0) {
    const [l, r, t, assign] = stack.pop()!;
    if (r === undefined) { assign(copy(l)); continue; }
    if (l === undefined) { assign(copy(r)); continue; }
    let shape = pairShape(t, l, r);
    if (shape.kind === 'map' && emptyish(l) && emptyish(r)) shape = leaf;
    if (shape.kind === 'list' && emptyList(l) && emptyList(r)) shape = leaf;
    if (shape.kind === 'leaf') { assign(copy(r)); continue; }
    if (shape.kind === 'map') {
      const lo = isObject(l) ? l : {};
      const ro = isObject(r) ? r : {};
      const out: JSONObject = {};
      assign(out);
      const keys = [...Object.keys(lo), ...Object.keys(ro).filter((k) => !Object.hasOwn(lo, k))];
      for (const k of keys) {
        setOwn(out, k, null);
        const ft = fieldType(shape.type, k);
        stack.push([Object.hasOwn(lo, k) ? lo[k] : undefined, Object.hasOwn(ro, k) ? ro[k] : undefined, ft, (v) => setOwn(out, k, v)]);
      }
      continue;
    }
    const pairs = mergeOrder(shape.list, Array.isArray(l) ? l : [], Array.isArray(r) ? r : []);
    const out: unknown[] = new Array<unknown>(pairs.length).fill(null);
    assign(out);
    pairs.forEach(([li, ri], i) => stack.push([li, ri, shape.list.element, (v) => { out[i] = v; }]));
  }
  return result;
}

/** A copy of a JSON value (iterative). */
function copy<T>(v: T): T {
  return v === null || typeof v !== 'object' ? v : structuredCopy(v);
}

function structuredCopy<T>(value: T): T {
  const clone = (v: object): object => (Array.isArray(v) ? new Array<unknown>(v.length) : {});
  const root = clone(value as object);
  const stack: [object, object][] = [[value as object, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const k of Object.keys(from)) {
      const v: unknown = (from as JSONObject)[k];
      if (v !== null && typeof v === 'object') {
        const c = clone(v);
        if (Array.isArray(to)) to[Number(k)] = c; else setOwn(to as JSONObject, k, c);
        stack.push([v, c]);
      } else if (Array.isArray(to)) to[Number(k)] = v; else setOwn(to as JSONObject, k, v);
    }
  }
  return root as T;
}

/**
 * The items of a merged granular list, as pairs of (live item, configured item): the configuration's
 * items in its order, the live items it does not mention kept at their place among them.
 */
function mergeOrder(list: ListType, lhs: unknown[], rhs: unknown[]): [unknown, unknown][] {
  const l = indexItems(list, lhs);
  const r = indexItems(list, rhs);
  const shared = r.pes.filter((pe) => l.byPE.has(pe));
  let next = 0;
  const merged = new Set<string>();
  const out: [unknown, unknown][] = [];
  let i = 0;
  let j = 0;
  const advance = (pe: string): void => { if (shared[next] === pe) next++; };
  // Each round consumes a live item or a configured item; the loop ends after lhs.length + rhs.length rounds.
  while (i < l.pes.length || j < r.pes.length) {
    if (i < l.pes.length && j < r.pes.length) {
      const pe = l.pes[i];
      if (pe === r.pes[j]) {
        merged.add(pe);
        out.push([l.byPE.get(pe), r.byPE.get(pe)]);
        i++; j++;
        advance(pe);
        continue;
      }
      if (r.byPE.has(pe) && next < shared.length && shared[next] !== pe) { i++; continue; }
    }
    if (i < l.pes.length) {
      const pe = l.pes[i];
      if (!r.byPE.has(pe)) { out.push([lhs[i], undefined]); i++; continue; }
      if (merged.has(pe)) { i++; continue; }
    }
    if (j < r.pes.length) {
      const pe = r.pes[j];
      if (!merged.has(pe)) {
        merged.add(pe);
        out.push([l.byPE.get(pe), r.byPE.get(pe)]);
      }
      j++;
      advance(pe);
    }
  }
  return out;
}

/**
 * Removes the members of `set` (with everything below them) from `value`, in place, as
 * `TypedValue.RemoveItems`: a map or list that the removal empties becomes null. Atomic values are
 * removed only as a whole.
 */
export function removeItems(value: unknown, set: FieldSet, type: TypeNode): unknown {
  const emptied: [unknown, JSONObject | unknown[], string | number][] = [];
  const stack: [unknown, TypeNode, FieldSet, JSONObject | unknown[] | undefined, string | number][] = [[value, type, set, undefined, '']];
  while (stack.length > 0) {
    const [v, t, s, parent, at] = stack.pop()!;
    const shape = shapeOf(t, v);
    if (shape.kind === 'leaf') continue;
    let removed = false;
    if (shape.kind === 'map') {
      const o = v as JSONObject;
      for (const [pe, c] of s.children) {
        if (!pe.startsWith('f:')) continue;
        const k = pe.slice(2);
        if (!Object.hasOwn(o, k)) continue;
        if (c.member) { delete o[k]; removed = true; continue; }
        stack.push([o[k], fieldType(shape.type, k), c, o, k]);
      }
    } else {
      const items = v as unknown[];
      const keep: unknown[] = [];
      const descend: [unknown, FieldSet][] = [];
      for (let i = 0; i < items.length; i++) {
        const pe = itemPathElement(shape.list, items[i], i);
        const c = s.children.get(pe);
        if (c?.member === true) { removed = true; continue; }
        keep.push(items[i]);
        if (c !== undefined && c.children.size > 0) descend.push([items[i], c]);
      }
      if (removed) items.splice(0, items.length, ...keep);
      for (const [item, c] of descend) stack.push([item, shape.list.element, c, items, items.indexOf(item)]);
    }
    if (removed && parent !== undefined) emptied.push([v, parent, at]);
  }
  // Children were visited after their parents: look at the deepest first.
  for (let i = emptied.length - 1; i >= 0; i--) {
    const [v, parent, at] = emptied[i];
    const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v as JSONObject).length === 0;
    if (!empty) continue;
    if (Array.isArray(parent)) parent[at as number] = null;
    else setOwn(parent, at as string, null);
  }
  return value;
}

/**
 * The set with every declared field that has members below it made a member itself
 * (`Set.EnsureNamedFieldsAreMembers`), so that removing it removes the struct.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, type: TypeNode): FieldSet {
  const out = new FieldSet();
  const stack: [FieldSet, TypeNode, FieldSet][] = [[set, type, out]];
  while (stack.length > 0) {
    const [s, type, o] = stack.pop()!;
    const t = concrete(type);
    if (s.member) o.member = true;
    for (const [pe, c] of s.children) {
      const oc = o.child(pe);
      let ct: TypeNode = deducedType;
      if (pe.startsWith('f:')) {
        const [ft, declared] = fieldOf(t, pe.slice(2));
        ct = ft;
        if (declared) oc.member = true;
      } else if (t.kind === 'list') ct = t.element;
      else if (t.kind === 'builtin') ct = builtinList(t).element;
      stack.push([c, ct, oc]);
    }
  }
  return out;
}
