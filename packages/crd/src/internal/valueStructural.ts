/**
 * The checks the apiserver runs along the structural schema after the OpenAPI validator:
 * `x-kubernetes-list-type` set/map uniqueness (apiextensions-apiserver pkg/apiserver/schema/listtype)
 * and embedded resources' apiVersion/kind/metadata (pkg/apiserver/schema/objectmeta/validation.go).
 * Both walk only `properties`, `additionalProperties` and `items`, as a structural schema does.
 */
import { FieldPath, duplicate, invalid, required } from '@kubekit/core';
import type { FieldError } from '@kubekit/core';
import type { JSONSchemaProps } from '../types.js';
import { goJSON } from '@kubekit/core';
import { goKind } from './valueGo.js';
import { isDNS1035Label } from '@kubekit/selectors';
import { decodeMeta, isPathSegment, parseGroupVersion, validateObjectMeta } from './valueObjectMeta.js';

function isMap(v: unknown): v is Record<string, unknown> {
  return goKind(v) === 'map';
}

function subSchema(s: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  const p = s.properties?.[key];
  if (p !== undefined && Object.hasOwn(s.properties!, key)) return p;
  return undefined;
}

function additional(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

function itemsOf(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof s.items === 'object' && !Array.isArray(s.items) ? s.items : undefined;
}

/** The key Go's `map[interface{}]int` would use for a scalar, or the JSON of a compound value. */
function setKey(x: unknown): string {
  const k = goKind(x);
  if (k === 'map' || k === 'slice') return `j${goJSON(x)}`;
  if (k === 'nil') return 'n';
  return `${k[0]}${goJSON(x)}`;
}

const unspecified = Symbol('unspecifiedKeyValue');

/** `validateListSet`: indices of the second occurrence of each repeated value. */
function nonUniqueIndices(items: readonly unknown[]): number[] {
  if (items.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  items.forEach((x, i) => {
    const key = x === unspecified ? 'u' : setKey(x);
    const times = seen.get(key);
    if (times === undefined) seen.set(key, 1);
    else {
      seen.set(key, times + 1);
      if (times === 1) out.push(i);
    }
  });
  return out;
}

function validateListMap(path: FieldPath, s: JSONSchemaProps, list: readonly unknown[]): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && x !== undefined && !isMap(x)) return [invalid(path.index(i), x, 'must be an object for an array of list-type map')];
  }
  if (list.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  if (keyFields.length === 1) {
    const kf = keyFields[0];
    const keys = list.map((x) => (isMap(x) && Object.hasOwn(x, kf) ? x[kf] : unspecified));
    return nonUniqueIndices(keys).map((i) => duplicate(path.index(i), keys[i] === unspecified ? {} : { [kf]: keys[i] }));
  }
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (isMap(x)) for (const kf of keyFields) if (Object.hasOwn(x, kf)) key[kf] = x[kf];
    return key;
  });
  return nonUniqueIndices(keys).map((i) => duplicate(path.index(i), keys[i]));
}

function listValue(path: FieldPath, s: JSONSchemaProps, v: unknown, errs: FieldError[]): void {
  if (Array.isArray(v)) {
    const listType = s['x-kubernetes-list-type'];
    if (listType === 'set') for (const i of nonUniqueIndices(v)) errs.push(duplicate(path.index(i), v[i]));
    else if (listType === 'map') errs.push(...validateListMap(path, s, v));
    const items = itemsOf(s);
    if (items !== undefined) v.forEach((x, i) => listValue(path.index(i), items, x, errs));
  } else if (isMap(v)) {
    listObject(path, s, v, errs);
  }
}

function listObject(path: FieldPath | undefined, s: JSONSchemaProps, obj: Record<string, unknown>, errs: FieldError[]): void {
  const child = (k: string): FieldPath => (path === undefined ? rootPath(k) : path.child(k));
  const ap = additional(s);
  if (ap !== undefined) for (const [k, v] of Object.entries(obj)) listValue(path === undefined ? rootKey(k) : path.key(k), ap, v, errs);
  if (s.properties !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = subSchema(s, k);
      if (sub !== undefined) listValue(child(k), sub, v, errs);
    }
  }
}

/** Go's `(*field.Path)(nil).Child(name)`: a path starting at `name`. */
function rootPath(name: string): FieldPath {
  return FieldPath.root(name);
}

/** Go's `(*field.Path)(nil).Key(key)`: printed `[key]`. */
function rootKey(key: string): FieldPath {
  return FieldPath.root('').key(key);
}

const featureCache = new WeakMap<object, { lists: boolean; embedded: boolean }>();

/** Whether the structural part of a schema declares set/map lists or embedded resources anywhere. */
function features(schema: JSONSchemaProps): { lists: boolean; embedded: boolean } {
  let f = featureCache.get(schema);
  if (f !== undefined) return f;
  f = { lists: false, embedded: false };
  const stack: unknown[] = [schema];
  for (let guard = 0; stack.length > 0 && guard < 1_000_000; guard++) {
    const s = stack.pop();
    if (!isMap(s)) continue;
    const lt = s['x-kubernetes-list-type'];
    if (lt === 'set' || lt === 'map') f.lists = true;
    if (s['x-kubernetes-embedded-resource'] === true) f.embedded = true;
    if (isMap(s.properties)) for (const k in s.properties) stack.push(s.properties[k]);
    stack.push(s.items, s.additionalProperties);
  }
  featureCache.set(schema, f);
  return f;
}

/** `ValidateListSetsAndMaps(nil, schema, obj)`: `Duplicate value` errors for set and map lists. */
export function validateListSetsAndMaps(schema: JSONSchemaProps | undefined, obj: Record<string, unknown>): FieldError[] {
  if (schema === undefined || !features(schema).lists) return [];
  const errs: FieldError[] = [];
  listObject(undefined, schema, obj, errs);
  return errs;
}

function validateEmbeddedResource(path: FieldPath, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(path.child('apiVersion'), ''));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(path.child('kind'), ''));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(path.child('apiVersion'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(path.child('apiVersion'), v, 'must not be empty'));
      else {
        const gv = parseGroupVersion(v);
        if (typeof gv === 'string') errs.push(invalid(path.child('apiVersion'), v, gv));
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(path.child('kind'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(path.child('kind'), v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) errs.push(invalid(path.child('kind'), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
      }
    } else if (k === 'metadata') {
      const meta = decodeMeta(v);
      if (typeof meta === 'string') errs.push(invalid(path.child('metadata'), v, meta));
      else {
        if (meta.name.length === 0) meta.name = 'fakename';
        errs.push(...validateObjectMeta(meta, meta.namespace.length > 0, isPathSegment, path.child('metadata')));
      }
    }
  }
  return errs;
}

function embedded(path: FieldPath | undefined, x: unknown, s: JSONSchemaProps | undefined, errs: FieldError[]): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    if (path !== undefined) x.forEach((v, i) => embedded(path.index(i), v, items, errs));
    return;
  }
  if (!isMap(x)) return;
  if (s['x-kubernetes-embedded-resource'] === true) errs.push(...validateEmbeddedResource(path ?? FieldPath.root(''), x));
  const ap = additional(s);
  for (const [k, v] of Object.entries(x)) {
    const prop = subSchema(s, k);
    if (prop !== undefined) embedded(path === undefined ? rootPath(k) : path.child(k), v, prop, errs);
    else if (ap !== undefined) embedded(path === undefined ? rootKey(k) : path.key(k), v, ap, errs);
  }
}

/** `objectmeta.Validate(nil, obj, schema, false)`: every embedded resource below the root. */
export function validateEmbeddedResources(schema: JSONSchemaProps | undefined, obj: Record<string, unknown>): FieldError[] {
  if (schema === undefined || !features(schema).embedded) return [];
  const errs: FieldError[] = [];
  embedded(undefined, obj, schema, errs);
  return errs;
}
