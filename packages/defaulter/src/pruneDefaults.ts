import { KubeError, cloneJSON } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { coerceObjectMeta } from './coerceObjectMeta.js';
import { checkDepth } from './internal/depth.js';
import { isObject, setOwn, type JSONObject } from './internal/json.js';
import { asSchema, defaultOf, itemsArrayError } from './internal/schema.js';
import { prune } from './prune.js';

/** One step from a schema node to a child: a property (or `*` for additionalProperties), or items. */
type Step = { key: string } | { index: true };

/**
 * A copy of `schema` whose defaults are pruned as the apiserver prunes them when it builds a custom
 * resource's storage (`defaulting.PruneDefaults`): each default is placed at its position in an
 * otherwise empty object, coerced and pruned against the whole schema as a resource root, and read
 * back; a default that disappears entirely is removed. This is what drops unknown `ObjectMeta`
 * fields from defaults inside or spanning the `metadata` of embedded resources, which CRD validation
 * lets through.
 *
 * Only `properties`, `items` and `additionalProperties` are copied; other keywords are shared with
 * `schema`, which is not modified.
 *
 * @throws KubeError (`BadRequest`) when the root has a default that is not an object, as upstream.
 * @see https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/prune.go
 */
export function pruneDefaults(schema: JSONSchemaProps | null | undefined): JSONSchemaProps | undefined {
  const root = asSchema(schema);
  if (root === undefined) return undefined;
  const copy = copyStructure(root, 0);
  pruneNode(copy, copy, [], 0);
  return copy;
}

function copyStructure(s: JSONSchemaProps, depth: number): JSONSchemaProps {
  checkDepth(depth);
  const out: JSONSchemaProps = { ...s };
  if (isObject(s.properties)) {
    const props: Record<string, JSONSchemaProps> = {};
    for (const k of Object.keys(s.properties)) {
      const p: unknown = s.properties[k];
      setOwn(props, k, copyStructure(isObject(p) ? p : {}, depth + 1));
    }
    out.properties = props;
  }
  if (Array.isArray(s.items)) throw itemsArrayError();
  if (isObject(s.items)) out.items = copyStructure(s.items, depth + 1);
  if (isObject(s.additionalProperties)) out.additionalProperties = copyStructure(s.additionalProperties, depth + 1);
  return out;
}

function pruneNode(root: JSONSchemaProps, s: JSONSchemaProps, path: Step[], depth: number): void {
  checkDepth(depth);
  const d = defaultOf(s);
  if (d !== undefined) {
    const obj = surround(path, cloneJSON(d));
    coerceObjectMeta(obj, root, { isResourceRoot: true, dropInvalidFields: true });
    prune(obj, root, { isResourceRoot: true, returnPruned: false });
    const pruned = extract(path, obj);
    if (pruned === undefined || pruned === null) delete s.default;
    else s.default = pruned as JSONSchemaProps['default'];
  }
  if (isObject(s.additionalProperties)) pruneNode(root, s.additionalProperties, [...path, { key: '*' }], depth + 1);
  if (isObject(s.items)) pruneNode(root, s.items as JSONSchemaProps, [...path, { index: true }], depth + 1);
  if (isObject(s.properties)) {
    for (const k of Object.keys(s.properties)) pruneNode(root, s.properties[k], [...path, { key: k }], depth + 1);
  }
}

/** The object that holds `x` at `path` and nothing else (upstream's SurroundingObjectFunc). */
function surround(path: readonly Step[], x: unknown): JSONObject {
  let v = x;
  for (let i = path.length - 1; i >= 0; i--) {
    const step = path[i];
    if ('index' in step) {
      v = [v];
    } else {
      const o: JSONObject = {};
      setOwn(o, step.key, v);
      v = o;
    }
  }
  if (!isObject(v)) throw new KubeError('BadRequest', 'failed to prune default value: object root default value must be of object type');
  return v;
}

/** The value at `path` in `obj`, or `undefined` when pruning removed it. */
function extract(path: readonly Step[], obj: JSONObject): unknown {
  let v: unknown = obj;
  for (const step of path) {
    if ('index' in step) {
      if (!Array.isArray(v) || v.length === 0) return undefined;
      v = v[0];
    } else {
      if (!isObject(v) || !Object.hasOwn(v, step.key)) return undefined;
      v = v[step.key];
    }
  }
  return v;
}
