// The compiled form of a structural schema: a tree of nodes, each with closures specialised to that
// node, so that per-object work touches only what can change. Every closure is called with a
// container (object or array) and the nesting depth, and mirrors the uncompiled algorithm exactly
// (the property test in compileSchema.test.ts holds them to it).
import { cloneJSON } from '@kubekit/core';
import type { FieldError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { childPath, coerceEmbeddedMeta, indexPath, keyPath, type CoerceState } from './coerce.js';
import { depthError, maxNestingDepth } from './depth.js';
import { isObject, setOwn, type JSONObject } from './json.js';
import type { PrunedPaths } from './prunedPaths.js';
import {
  additionalProperties,
  defaultOf,
  isEmbeddedResource,
  isMetaField,
  isNullable,
  itemsArrayError,
  preservesUnknownFields,
  propertyEntries,
} from './schema.js';

type Container = JSONObject | unknown[];
/** Prunes a container. */
export type PruneFn = (x: Container, depth: number, t: PrunedPaths | undefined) => void;
/** Null pruning or defaulting of a container. */
export type WalkFn = (x: Container, depth: number) => void;
/** ObjectMeta coercion of a container at `path`. */
export type CoerceFn = (x: Container, path: string, st: CoerceState, depth: number) => FieldError | undefined;

/** One compiled schema node. */
export interface Node {
  readonly props: ReadonlyMap<string, Node>;
  readonly propList: readonly (readonly [string, Node])[];
  readonly items: Node | undefined;
  readonly apPresent: boolean;
  readonly ap: Node | undefined;
  readonly nullable: boolean;
  readonly preserve: boolean;
  readonly embedded: boolean;
  /** A fresh copy of the default, or `undefined` when the node has none. */
  readonly copyDefault: (() => unknown) | undefined;
  /** Whether a `null` under this schema is removed by null pruning (non-nullable, no default). */
  readonly nullDeletable: boolean;
  readonly prune: PruneFn;
  readonly skipPrune: PruneFn | undefined;
  readonly pruneNulls: WalkFn | undefined;
  readonly applyDefaults: WalkFn | undefined;
  readonly coerce: CoerceFn | undefined;
}

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** Prune without a schema: objects lose all fields, arrays are descended. */
export const nilPrune: PruneFn = (x, depth, t) => {
  if (depth > maxNestingDepth) throw depthError();
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      if (!isContainer(v)) continue;
      t?.pushIndex(i);
      nilPrune(v, depth + 1, t);
      t?.pop();
    }
    return;
  }
  for (const k of Object.keys(x)) {
    t?.record(k);
    delete x[k];
  }
};

const noopPrune: PruneFn = () => undefined;

/** Compiles `s` (a node at schema nesting `depth`). */
export function compileNode(s: JSONSchemaProps, depth: number): Node {
  if (depth > maxNestingDepth) throw depthError('schema');
  const propList: [string, Node][] = propertyEntries(s).map(([k, p]) => [k, compileNode(p, depth + 1)]);
  const props = new Map(propList);
  const rawItems: unknown = s.items;
  if (Array.isArray(rawItems)) throw itemsArrayError();
  const items = isObject(rawItems) ? compileNode(rawItems as JSONSchemaProps, depth + 1) : undefined;
  const apInfo = additionalProperties(s);
  const ap = apInfo.present && apInfo.schema !== undefined ? compileNode(apInfo.schema, depth + 1) : undefined;
  const d = defaultOf(s);
  const shape = {
    props, propList, items, apPresent: apInfo.present, ap,
    nullable: isNullable(s),
    preserve: preservesUnknownFields(s),
    embedded: isEmbeddedResource(s),
    copyDefault: d === undefined ? undefined : compileCopy(d, 0),
    nullDeletable: !isNullable(s) && d === undefined,
  };
  const skipPrune = makeSkipPrune(shape, shape.embedded);
  return {
    ...shape,
    skipPrune,
    prune: shape.preserve ? skipPrune ?? noopPrune : makePrune(shape, shape.embedded),
    pruneNulls: makePruneNulls(shape),
    applyDefaults: makeApplyDefaults(shape),
    coerce: makeCoerce(shape, shape.embedded),
  };
}

type Shape = Pick<Node, 'props' | 'propList' | 'items' | 'apPresent' | 'ap' | 'nullable' | 'preserve' | 'embedded' | 'copyDefault' | 'nullDeletable'>;

/** The prune function of a node as a resource root (embedded forced), or of no schema at a root. */
export function rootPrune(node: Node | undefined): PruneFn {
  const shape: Shape = node ?? emptyShape;
  if (shape.preserve) return makeSkipPrune(shape, true) ?? noopPrune;
  return makePrune(shape, true);
}

/** The coerce function of a node as a resource root (embedded forced). */
export function rootCoerce(node: Node | undefined): CoerceFn | undefined {
  return makeCoerce(node ?? emptyShape, true);
}

const emptyShape: Shape = {
  props: new Map(), propList: [], items: undefined, apPresent: false, ap: undefined,
  nullable: false, preserve: false, embedded: false, copyDefault: undefined, nullDeletable: true,
};

/** A function returning a fresh deep copy of the constant `v` (captured now, so later edits of the schema do not leak in). */
function compileCopy(v: unknown, depth: number): () => unknown {
  if (!isContainer(v)) return () => v;
  if (depth > maxNestingDepth) throw depthError('schema');
  if (Array.isArray(v)) {
    const fns = v.map((x) => compileCopy(x, depth + 1));
    return () => {
      const out = new Array<unknown>(fns.length);
      for (let i = 0; i < fns.length; i++) out[i] = fns[i]();
      return out;
    };
  }
  const keys = Object.keys(v);
  const fns = keys.map((k) => compileCopy(v[k], depth + 1));
  if (keys.includes('__proto__')) {
    const snapshot = cloneJSON(v);
    return () => cloneJSON(snapshot);
  }
  return () => {
    const out: JSONObject = {};
    for (let i = 0; i < keys.length; i++) out[keys[i]] = fns[i]();
    return out;
  };
}

function makePrune(n: Shape, embedded: boolean): PruneFn {
  const { props, apPresent } = n;
  const apPrune = n.ap?.prune ?? nilPrune;
  const itemsPrune = n.items?.prune ?? nilPrune;
  return (x, depth, t) => {
    if (depth > maxNestingDepth) throw depthError();
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const v = x[i];
        if (!isContainer(v)) continue;
        t?.pushIndex(i);
        itemsPrune(v, depth + 1, t);
        t?.pop();
      }
      return;
    }
    for (const k of Object.keys(x)) {
      if (embedded && isMetaField(k)) continue;
      const child = props.get(k);
      if (child !== undefined || apPresent) {
        const v = x[k];
        if (!isContainer(v)) continue;
        t?.pushKey(k);
        (child === undefined ? apPrune : child.prune)(v, depth + 1, t);
        t?.pop();
      } else {
        if (t !== undefined && (!isMetaField(k) || !t.atRoot())) t.record(k);
        delete x[k];
      }
    }
  };
}

function makeSkipPrune(n: Shape, embedded: boolean): PruneFn | undefined {
  const { props, apPresent } = n;
  const itemsSkip = n.items?.skipPrune;
  const apPrune = n.ap?.prune ?? nilPrune;
  const known = n.propList.filter(([k]) => !(embedded && isMetaField(k)));
  if (known.length === 0 && !apPresent && itemsSkip === undefined) return undefined;
  return (x, depth, t) => {
    if (depth > maxNestingDepth) throw depthError();
    if (Array.isArray(x)) {
      if (itemsSkip === undefined) return;
      for (let i = 0; i < x.length; i++) {
        const v = x[i];
        if (!isContainer(v)) continue;
        t?.pushIndex(i);
        itemsSkip(v, depth + 1, t);
        t?.pop();
      }
      return;
    }
    if (apPresent) {
      for (const k of Object.keys(x)) {
        if (embedded && isMetaField(k)) continue;
        const v = x[k];
        if (!isContainer(v)) continue;
        const child = props.get(k);
        t?.pushKey(k);
        (child === undefined ? apPrune : child.prune)(v, depth + 1, t);
        t?.pop();
      }
      return;
    }
    // Unknown fields stay, so only the declared properties need a look.
    for (const [k, child] of known) {
      if (!Object.hasOwn(x, k)) continue;
      const v = (x as JSONObject)[k];
      if (!isContainer(v)) continue;
      t?.pushKey(k);
      child.prune(v, depth + 1, t);
      t?.pop();
    }
  };
}

function makePruneNulls(n: Shape): WalkFn | undefined {
  const { props, ap } = n;
  const itemsFn = n.items?.pruneNulls;
  const work = n.propList.filter(([, c]) => c.nullDeletable || c.pruneNulls !== undefined);
  const apWork = ap !== undefined && (ap.nullDeletable || ap.pruneNulls !== undefined);
  if (work.length === 0 && !apWork && itemsFn === undefined) return undefined;
  return (x, depth) => {
    if (depth > maxNestingDepth) throw depthError();
    if (Array.isArray(x)) {
      if (itemsFn === undefined) return;
      for (let i = 0; i < x.length; i++) {
        const v = x[i];
        if (isContainer(v)) itemsFn(v, depth + 1);
      }
      return;
    }
    if (apWork) {
      for (const k of Object.keys(x)) {
        const c = props.get(k) ?? ap;
        const v = x[k];
        if (v === null) {
          if (c.nullDeletable) delete x[k];
        } else if (c.pruneNulls !== undefined && isContainer(v)) {
          c.pruneNulls(v, depth + 1);
        }
      }
      return;
    }
    for (const [k, c] of work) {
      if (!Object.hasOwn(x, k)) continue;
      const v = (x as JSONObject)[k];
      if (v === null) {
        if (c.nullDeletable) delete (x as JSONObject)[k];
      } else if (c.pruneNulls !== undefined && isContainer(v)) {
        c.pruneNulls(v, depth + 1);
      }
    }
  };
}

function makeApplyDefaults(n: Shape): WalkFn | undefined {
  const { props, ap, items } = n;
  const defaulted = n.propList.filter(([, c]) => c.copyDefault !== undefined)
    .map(([k, c]) => [k, c.copyDefault as () => unknown, c.nullable] as const);
  const walked = n.propList.filter(([, c]) => c.applyDefaults !== undefined)
    .map(([k, c]) => [k, c.applyDefaults as WalkFn] as const);
  const apReplace = ap !== undefined && !ap.nullable ? ap.copyDefault : undefined;
  const apFn = ap?.applyDefaults;
  const itemsReplace = items !== undefined && !items.nullable ? items.copyDefault : undefined;
  const itemsFn = items?.applyDefaults;
  const apWork = apReplace !== undefined || apFn !== undefined;
  if (defaulted.length === 0 && walked.length === 0 && !apWork && itemsReplace === undefined && itemsFn === undefined) return undefined;
  return (x, depth) => {
    if (depth > maxNestingDepth) throw depthError();
    if (Array.isArray(x)) {
      if (itemsReplace === undefined && itemsFn === undefined) return;
      for (let i = 0; i < x.length; i++) {
        let v = x[i];
        if (v === null && itemsReplace !== undefined) x[i] = v = itemsReplace();
        if (itemsFn !== undefined && isContainer(v)) itemsFn(v, depth + 1);
      }
      return;
    }
    const obj = x as JSONObject;
    for (const [k, copy, nullable] of defaulted) {
      const v = Object.hasOwn(obj, k) ? obj[k] : undefined;
      if (v === undefined || (v === null && !nullable)) setOwn(obj, k, copy());
    }
    for (const [k, fn] of walked) {
      if (!Object.hasOwn(obj, k)) continue;
      const v = obj[k];
      if (isContainer(v)) fn(v, depth + 1);
    }
    if (!apWork) return;
    for (const k of Object.keys(obj)) {
      if (props.has(k)) continue;
      let v = obj[k];
      if (v === null && apReplace !== undefined) obj[k] = v = apReplace();
      if (apFn !== undefined && isContainer(v)) apFn(v, depth + 1);
    }
  };
}

function makeCoerce(n: Shape, embedded: boolean): CoerceFn | undefined {
  const { props, apPresent } = n;
  const apFn = n.ap?.coerce;
  const itemsFn = n.items?.coerce;
  const anyChild = itemsFn !== undefined || apFn !== undefined || n.propList.some(([, c]) => c.coerce !== undefined);
  if (!embedded && !anyChild) return undefined;
  return (x, path, st, depth) => {
    if (depth > maxNestingDepth) throw depthError();
    if (Array.isArray(x)) {
      if (itemsFn === undefined) return undefined;
      for (let i = 0; i < x.length; i++) {
        const v = x[i];
        if (!isContainer(v)) continue;
        const err = itemsFn(v, indexPath(path, i), st, depth + 1);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    for (const k of Object.keys(x)) {
      const v = x[k];
      if (embedded) {
        const err = coerceEmbeddedMeta(x, k, v, path, st);
        if (err !== undefined) return err;
      }
      if (!isContainer(v)) continue;
      const child = props.get(k);
      let err: FieldError | undefined;
      if (child !== undefined) {
        if (child.coerce !== undefined) err = child.coerce(v, childPath(path, k), st, depth + 1);
      } else if (apPresent && apFn !== undefined) {
        err = apFn(v, keyPath(path, k), st, depth + 1);
      }
      if (err !== undefined) return err;
    }
    return undefined;
  };
}
