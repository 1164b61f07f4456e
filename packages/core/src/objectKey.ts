import { jsonTypeName } from './json.js';
import { KubeError } from './kubeError.js';
import type { KubeObject } from './types.js';

declare const objectKeyBrand: unique symbol;

/** An object's cache key: `namespace/name` for namespaced objects, `name` for cluster-scoped ones. */
export type ObjectKey = string & { readonly [objectKeyBrand]: true };

/** The key client-go's `MetaNamespaceKeyFunc` computes: `namespace/name`, or `name` without a namespace. */
export function objectKey(obj: Pick<KubeObject, 'metadata'>): ObjectKey {
  const { namespace, name } = obj.metadata ?? {};
  if (typeof name !== 'string' || name === '') {
    throw KubeError.badRequest(name === undefined || name === '' ? 'object has no metadata.name' : `object's metadata.name must be a string, got ${jsonTypeName(name)}`);
  }
  if (typeof namespace !== 'string' && namespace !== undefined && namespace !== null) {
    throw KubeError.badRequest(`object's metadata.namespace must be a string, got ${jsonTypeName(namespace)}`);
  }
  return (namespace ? `${namespace}/${name}` : name) as ObjectKey;
}

/** Builds a key from a namespace (empty for cluster-scoped) and a name. */
export function makeObjectKey(namespace: string | undefined, name: string): ObjectKey {
  return (namespace ? `${namespace}/${name}` : name) as ObjectKey;
}

/** Splits a key into namespace (`''` for cluster-scoped) and name, as client-go's `SplitMetaNamespaceKey`. */
export function splitObjectKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] };
  if (parts.length === 2) return { namespace: parts[0], name: parts[1] };
  throw KubeError.badRequest(`unexpected key format: "${key}"`);
}
