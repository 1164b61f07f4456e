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
import { KubeError } from '@kubekit/core';
import { cloneJSON, getOwn, isObject, setOwn, type JSONObject } from './internal/own.js';

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
    case 'conditions': return parent === 'status' ? { key: 'type' } : undefined;
    // ServiceSpec.ports (the container ports are handled above).
    case 'ports': return path.length === 2 && path[0] === 'spec' ? { key: 'port' } : undefined;
    default: return undefined;
  }
}

function patchError(message: string): KubeError {
  return KubeError.badRequest(message);
}

/** Applies a strategic merge patch to (a copy of) `target`. */
export function strategicMerge(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJSON(patch);
  return mergeMap(isObject(target) ? cloneJSON(target) : {}, patch, []);
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JSONObject = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) setOwn(out, k, stripDirectives(x));
  return out;
}

/** Merges `patch` into `original` (which it may change) and returns the result, or undefined for `$patch: delete`. */
function mergeMap(original: JSONObject, patch: JSONObject, path: string[]): JSONObject | undefined {
  const directive = getOwn(patch, '$patch');
  if (directive === 'replace') return stripDirectives(patch) as JSONObject;
  if (directive === 'delete') return undefined;
  const out = original;
  const orders: [string, unknown][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys') continue;
    if (k.startsWith('$setElementOrder/')) {
      orders.push([k.slice('$setElementOrder/'.length), v]);
      continue;
    }
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const current = getOwn(out, field);
      if (Array.isArray(current) && Array.isArray(v)) {
        const drop = new Set(v.map((x) => JSON.stringify(x)));
        setOwn(out, field, current.filter((x) => !drop.has(JSON.stringify(x))));
      }
      continue;
    }
    if (k.startsWith('$')) continue;
    if (v === null) {
      delete out[k];
      continue;
    }
    const childPath = [...path, k];
    const current = getOwn(out, k);
    if (Array.isArray(v)) {
      const merged = mergeList(Array.isArray(current) ? current : [], v, childPath);
      setOwn(out, k, merged);
    } else if (isObject(v)) {
      const merged = mergeMap(isObject(current) ? current : {}, v, childPath);
      if (merged === undefined) delete out[k];
      else setOwn(out, k, merged);
    } else {
      setOwn(out, k, v);
    }
  }
  for (const [field, order] of orders) {
    const list = getOwn(out, field);
    if (Array.isArray(list) && Array.isArray(order)) setOwn(out, field, reorder(list, order, listStrategy([...path, field])));
  }
  const retain = getOwn(patch, '$retainKeys');
  if (Array.isArray(retain)) {
    const keep = new Set(retain.map(String));
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
  return out;
}

function keyOf(item: unknown, key: string): string | undefined {
  if (!isObject(item)) return undefined;
  const v = getOwn(item, key);
  return v === undefined ? undefined : JSON.stringify(v);
}

function mergeList(original: unknown[], patch: unknown[], path: string[]): unknown[] {
  const strategy = listStrategy(path);
  const replace = patch.some((x) => isObject(x) && getOwn(x, '$patch') === 'replace');
  if (replace) return patch.filter((x) => !(isObject(x) && getOwn(x, '$patch') === 'replace')).map(stripDirectives);
  if (strategy === undefined) return patch.map(stripDirectives);
  if (strategy === 'set') {
    const out = [...original];
    const seen = new Set(out.map((x) => JSON.stringify(x)));
    for (const x of patch) {
      const s = JSON.stringify(x);
      if (!seen.has(s)) {
        seen.add(s);
        out.push(x);
      }
    }
    return out;
  }
  const out = [...original];
  for (const item of patch) {
    const k = keyOf(item, strategy.key);
    if (!isObject(item) || k === undefined) throw patchError(`map: ${JSON.stringify(item)} does not contain declared merge key: ${strategy.key}`);
    const at = out.findIndex((x) => keyOf(x, strategy.key) === k);
    if (getOwn(item, '$patch') === 'delete') {
      for (let i = out.length - 1; i >= 0; i--) if (keyOf(out[i], strategy.key) === k) out.splice(i, 1);
      continue;
    }
    const elementPath = [...path, '[]'];
    if (at < 0) out.push(mergeMap({}, item, elementPath));
    else out[at] = mergeMap(isObject(out[at]) ? out[at] as JSONObject : {}, item, elementPath);
  }
  return out.filter((x) => x !== undefined);
}

/**
 * `$setElementOrder`: the listed elements first, in the listed order, then the others in their
 * current order.
 */
function reorder(list: unknown[], order: unknown[], strategy: ListStrategy): unknown[] {
  const id = (x: unknown): string | undefined => (strategy === 'set' || strategy === undefined ? JSON.stringify(x) : keyOf(x, strategy.key));
  const wanted = order.map(id);
  const placed: unknown[] = [];
  const used = new Set<number>();
  for (const w of wanted) {
    const i = list.findIndex((x, j) => !used.has(j) && id(x) === w);
    if (i >= 0) {
      used.add(i);
      placed.push(list[i]);
    }
  }
  return [...placed, ...list.filter((_, j) => !used.has(j))];
}
