/**
 * Strategic merge patch for the built-in kinds: a merge patch in which the lists the Kubernetes types
 * tag `patchStrategy:"merge"` are merged — lists of objects by their `patchMergeKey` (containers by
 * `name`, container ports by `containerPort`, Service ports by `port`, ...), lists of strings as sets
 * (`metadata.finalizers`) — with the directives kubectl sends: `$patch: replace|delete|merge`,
 * `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`. Other lists are
 * atomic (replaced).
 *
 * The strategies come from a table of field names in their context rather than from the OpenAPI
 * schemas; kinds not listed there merge like JSON merge patches.
 *
 * @see https://github.com/kubernetes/community/blob/master/contributors/devel/sig-api-machinery/strategic-merge-patch.md
 */
import { KubeError, goSprint, stringifyJSON } from '@kubekit/core';
import { cloneJSON, getOwn, isObject, setOwn, type JSONObject } from './internal/own.js';
import { goKindStruct, goMemberStruct } from './builtinGoJSON.js';

/** How a list merges: by a key of its objects, as a set of primitives, or not at all (atomic). */
type ListStrategy = { key: string } | 'set' | undefined;

const containerLists = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/**
 * The strategy of the list at `path` (field names; `[]` for a list element), from the
 * `patchStrategy`/`patchMergeKey` tags of k8s.io/api.
 */
export function listStrategy(path: readonly string[]): ListStrategy {
  const field = path[path.length - 1];
  const parent = path[path.length - 2];
  const grand = path[path.length - 3];
  const inContainer = parent === '[]' && grand !== undefined && containerLists.has(grand);
  if (path.length === 2 && path[0] === 'metadata') {
    if (field === 'finalizers') return 'set';
    if (field === 'ownerReferences') return { key: 'uid' };
    return undefined;
  }
  if (inContainer) {
    switch (field) {
      case 'ports': return { key: 'containerPort' };
      case 'env': return { key: 'name' };
      case 'volumeMounts': return { key: 'mountPath' };
      case 'volumeDevices': return { key: 'devicePath' };
      default: return undefined;
    }
  }
  switch (field) {
    case 'containers': case 'initContainers': case 'ephemeralContainers':
    case 'volumes': case 'imagePullSecrets': case 'resourceClaims': case 'schedulingGates':
      return { key: 'name' };
    case 'hostAliases': return { key: 'ip' };
    // Validating/MutatingWebhookConfiguration.webhooks.
    case 'webhooks': return path.length === 1 ? { key: 'name' } : undefined;
    case 'topologySpreadConstraints': return { key: 'topologyKey' };
    // CSINodeSpec.drivers.
    case 'drivers': return path.length === 2 && path[0] === 'spec' ? { key: 'name' } : undefined;
    case 'conditions': return parent === 'status' ? { key: 'type' } : undefined;
    // ServiceSpec.ports (the container ports are handled above).
    case 'ports': return path.length === 2 && path[0] === 'spec' ? { key: 'port' } : undefined;
    default: return undefined;
  }
}

function patchError(message: string): KubeError {
  return KubeError.badRequest(message);
}

/**
 * The error for a `$patch` value that does not apply where it stands (`ErrBadPatchType` in
 * mergepatch/errors.go). The apiserver answers these with a 500; the embedded server with a 400,
 * since the request is at fault.
 */
function badPatchType(directive: unknown, where: JSONObject): KubeError {
  return patchError(`unknown patch type: ${goSprint(directive)} in map: ${goSprint(where)}`);
}

/** Applies a strategic merge patch to (a copy of) `target`. */
export function strategicMerge(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJSON(patch);
  return mergeMap(isObject(target) ? cloneJSON(target) : {}, patch, [], isObject(target) ? rootStruct(target) : undefined);
}

/** In place of a struct's name: the value is a Go map (its keys are not fields; directives that name fields fail). */
const goMap = 'map';

/** The Go struct of a built-in object (from its apiVersion and kind), whose fields the patch's directives name. */
function rootStruct(target: JSONObject): string | undefined {
  const apiVersion = typeof target.apiVersion === 'string' ? target.apiVersion : '';
  const slash = apiVersion.indexOf('/');
  const kind = typeof target.kind === 'string' ? target.kind : '';
  return goKindStruct(slash < 0 ? { group: '', version: apiVersion, kind } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind });
}

/**
 * The error of a directive naming a member the Go struct lacks (`LookupPatchMetadataForStruct` in
 * forked json's fields.go). The apiserver answers it with a 500; the embedded server with a 400, since the
 * request is at fault.
 */
function noSuchField(struct: string, field: string): KubeError {
  return patchError(`unable to find api field in struct ${struct.slice(struct.lastIndexOf('.') + 1)} for the json field ${JSON.stringify(field)}`);
}

/** What {@link withoutDirectives} returns for a value that is itself a directive. */
const dropped = Symbol('dropped');

/**
 * `value` without null members, at any depth (`discardNullValuesFromPatch`: the apiserver merges with
 * `IgnoreUnmatchedNulls`). Changes `value`, as the apiserver changes the patch it quotes in errors.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) value.forEach(withoutNulls);
  else if (isObject(value)) {
    for (const k of Object.keys(value)) {
      if (value[k] === null) delete value[k];
      else withoutNulls(value[k]);
    }
  }
  return value;
}

/**
 * `value` without the maps that hold `$patch` (`removeDirectives` in strategicpatch/patch.go): such a map
 * is {@link dropped}, in a map its key goes, in a list its element. Other `$` members stay. Changes `value`.
 */
function withoutDirectives(value: unknown): unknown {
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) {
      const v = withoutDirectives(item);
      if (v !== dropped) kept.push(v);
    }
    return kept;
  }
  if (!isObject(value)) return value;
  if (Object.hasOwn(value, '$patch')) return dropped;
  for (const k of Object.keys(value)) {
    const v = withoutDirectives(value[k]);
    if (v === dropped) delete value[k];
    else value[k] = v;
  }
  return value;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JSONObject = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) setOwn(out, k, stripDirectives(x));
  return out;
}

/**
 * `$retainKeys`: every key the patch sets must be listed, and the original keeps only the listed
 * keys (`applyRetainKeysDirective` in strategicpatch/patch.go).
 */
function retainKeys(original: JSONObject, patch: JSONObject, retain: unknown): void {
  const message = 'invalid patch format of retainKeys';
  if (!Array.isArray(retain)) throw patchError(message);
  const keep = new Set(retain);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith('$')) continue;
    if (!keep.has(k)) throw patchError(message);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/**
 * Merges `patch` into `original` (which it may change) and returns the result. `struct` is the Go struct
 * both stand for, when known (a map's entries and the members of types without one have none).
 */
function mergeMap(original: JSONObject, patch: JSONObject, path: string[], struct?: string): JSONObject {
  const directive = getOwn(patch, '$patch');
  if (directive === 'replace') return stripDirectives(patch) as JSONObject;
  // The apiserver's `$patch: delete` of a map leaves an empty map, not an absent field.
  if (directive === 'delete') return {};
  if (directive !== undefined) throw badPatchType(directive, patch);
  const out = original;
  if (Object.hasOwn(patch, '$retainKeys')) retainKeys(out, patch, patch.$retainKeys);
  // `$setElementOrder/<list>` looks the list up in the struct before anything is merged (mergePatchIntoOriginal).
  if (struct !== undefined) {
    for (const k of Object.keys(patch)) {
      if (!k.startsWith('$setElementOrder/')) continue;
      if (struct === goMap) throw patchError('merging an object in json but data type is not struct, instead is: map');
      const field = k.slice('$setElementOrder/'.length);
      if (!goMemberStruct(struct, field).known) throw noSuchField(struct, field);
    }
  }
  // `$setElementOrder/<list>` orders the merged list against the list as it was before the patch.
  const orders: [string, unknown, unknown][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$retainKeys') continue;
    if (k.startsWith('$setElementOrder/')) {
      const field = k.slice('$setElementOrder/'.length);
      orders.push([field, v, getOwn(out, field)]);
      continue;
    }
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const current = getOwn(out, field);
      if (Array.isArray(current) && Array.isArray(v)) {
        const drop = new Set(v.map((x) => stringifyJSON(x)));
        setOwn(out, field, current.filter((x) => !drop.has(stringifyJSON(x))));
      }
      continue;
    }
    if (k.startsWith('$')) continue;
    if (v === null) {
      if (Object.hasOwn(out, k)) delete out[k];
      continue;
    }
    const childPath = [...path, k];
    const current = getOwn(out, k);
    const found = struct === undefined || struct === goMap ? undefined : goMemberStruct(struct, k);
    const member = found?.map === true ? goMap : found?.struct;
    if (Array.isArray(v) && Array.isArray(current)) setOwn(out, k, mergeList(current, v, childPath, member));
    else if (isObject(v) && isObject(current)) setOwn(out, k, mergeMap(current, v, childPath, member));
    else {
      // Nothing of the same type to merge into: the patch's value is taken, its nulls dropped and its
      // directives removed (a map holding `$patch`, of any value, is no value at all: the key goes).
      const taken = withoutDirectives(withoutNulls(v));
      if (taken === dropped) delete out[k];
      else setOwn(out, k, taken);
    }
  }
  for (const [field, order, before] of orders) {
    const list = getOwn(out, field);
    if (!Array.isArray(list) || !Array.isArray(order)) continue;
    const id = identity(listStrategy([...path, field]));
    setOwn(out, field, normalizeOrder(list, order, Array.isArray(before) ? before : [], id));
  }
  return out;
}

function keyOf(item: unknown, key: string): string | undefined {
  if (!isObject(item)) return undefined;
  const v = getOwn(item, key);
  return v === undefined ? undefined : stringifyJSON(v);
}

/** How a list's elements are told apart: by their merge key, else by value. */
function identity(strategy: ListStrategy): (x: unknown) => string | undefined {
  return strategy === 'set' || strategy === undefined ? (x) => stringifyJSON(x) : (x) => keyOf(x, strategy.key);
}

function missingMergeKey(item: unknown, key: string): KubeError {
  return patchError(`map: ${goSprint(item)} does not contain declared merge key: ${key}`);
}

/**
 * Merges a patch list into a list (`mergeSlice` in strategicpatch/patch.go): atomic lists are
 * replaced; sets take the patch's new values; keyed lists merge elements with equal keys, drop those
 * a `{$patch: delete}` element names, and are replaced by a list holding `{$patch: replace}`. The
 * result is in the apiserver's order (see {@link normalizeOrder}).
 */
function mergeList(original: unknown[], patch: unknown[], path: string[], struct?: string): unknown[] {
  const strategy = listStrategy(path);
  // An atomic list is the patch's, as it is (`mergeSliceHandler`): a `$patch` or other `$` member in its
  // elements is left for the decoder, which drops it as an unknown field (and reports it under
  // `fieldValidation=Strict` or `Warn`: `unknown field "spec.tolerations[0].$patch"`).
  if (strategy === undefined) return patch;
  const id = identity(strategy);
  if (strategy === 'set') {
    const merged = new Map<string | undefined, unknown>();
    for (const x of [...original, ...patch]) {
      const k = id(x);
      if (!merged.has(k)) merged.set(k, x);
    }
    return normalizeOrder([...merged.values()], patch, original, id);
  }
  let server = original;
  const items: JSONObject[] = [];
  let replace = false;
  for (const item of patch) {
    if (!isObject(item)) throw missingMergeKey(item, strategy.key);
    const directive = getOwn(item, '$patch');
    if (directive === undefined) {
      if (id(item) === undefined) throw missingMergeKey(item, strategy.key);
      items.push(item);
    } else if (directive === 'delete') {
      const k = id(item);
      if (k === undefined) throw missingMergeKey(item, strategy.key);
      server = server.filter((x) => id(x) !== k);
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw patchError('merging lists cannot yet be specified in the patch');
    } else {
      throw badPatchType(directive, item);
    }
  }
  if (replace) return items.map(stripDirectives);
  const merged = [...server];
  const elementPath = [...path, '[]'];
  // The first element of each identity, by identity (a patch element merges into it, or is appended).
  const firstAt = new Map<string | undefined, number>();
  merged.forEach((x, i) => {
    const k = id(x);
    if (!firstAt.has(k)) firstAt.set(k, i);
  });
  for (const item of items) {
    const k = id(item);
    const at = firstAt.get(k);
    if (at === undefined) {
      firstAt.set(k, merged.length);
      merged.push(mergeMap({}, item, elementPath, struct));
    } else merged[at] = mergeMap(isObject(merged[at]) ? merged[at] as JSONObject : {}, item, elementPath, struct);
  }
  return normalizeOrder(merged, items, server, id);
}

/**
 * The apiserver's order of a merged list (`normalizeElementOrder` and `mergeSortedSlice` in
 * strategicpatch/patch.go): the elements named by `order` (the patch list, or a `$setElementOrder`
 * list) in that order, with the other elements, in their order in `server` (the list before the
 * patch), placed before the first named element that comes after them in `server`. So a new element
 * goes first, and a list the patch names completely takes the patch's order.
 */
function normalizeOrder(merged: unknown[], order: unknown[], server: unknown[], id: (x: unknown) => string | undefined): unknown[] {
  const indexes = (list: unknown[]): Map<string | undefined, number> => {
    const m = new Map<string | undefined, number>();
    list.forEach((x, i) => {
      const k = id(x);
      if (!m.has(k)) m.set(k, i);
    });
    return m;
  };
  const inOrder = indexes(order);
  const inServer = indexes(server);
  // Each element's identity once (for sets it is the element's JSON), not at every comparison.
  const keyed = merged.map((x) => ({ x, k: id(x) }));
  const named = keyed.filter((e) => inOrder.has(e.k)).sort((a, b) => inOrder.get(a.k)! - inOrder.get(b.k)!);
  const others = keyed.filter((e) => !inOrder.has(e.k)).sort((a, b) => (inServer.get(a.k) ?? Infinity) - (inServer.get(b.k) ?? Infinity));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < others.length || j < named.length) {
    if (j >= named.length) out.push(others[i++].x);
    else if (i >= others.length) out.push(named[j++].x);
    else {
      const l = inServer.get(others[i].k);
      const r = inServer.get(named[j].k);
      out.push(l !== undefined && r !== undefined && l < r ? others[i++].x : named[j++].x);
    }
  }
  return out;
}
