import { KubeError } from './kubeError.js';

/** A group and version, as in `apiVersion`. The core group is `''`. */
export interface GroupVersion {
  group: string;
  version: string;
}

/** A group, version and kind. */
export interface GroupVersionKind extends GroupVersion {
  kind: string;
}

/** A group, version and resource (the plural name used in URLs). */
export interface GroupVersionResource extends GroupVersion {
  resource: string;
}

/**
 * Splits an `apiVersion` into group and version: `v1` → `{group: '', version: 'v1'}`,
 * `stable.example.com/v1` → `{group: 'stable.example.com', version: 'v1'}`.
 *
 * @throws KubeError (`BadRequest`) when the text has more than one `/` or an empty part.
 */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const parts = apiVersion.split('/');
  if (parts.length === 1 && parts[0] !== '') return { group: '', version: parts[0] };
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') return { group: parts[0], version: parts[1] };
  throw KubeError.badRequest(`unexpected GroupVersion string: ${apiVersion}`);
}

/** Joins a group and version into an `apiVersion`. */
export function formatApiVersion(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** The URL path of a resource collection: `/api/v1/namespaces/ns/pods` or `/apis/g/v/shirts`. */
export function resourcePath(gvr: GroupVersionResource, namespace?: string, name?: string, subresource?: string): string {
  let path = gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
  if (namespace !== undefined && namespace !== '') path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${gvr.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) path += `/${subresource}`;
  return path;
}
