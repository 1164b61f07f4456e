import { KubeError } from './kubeError.js';
import { goQuote } from './internal/goFormat.js';

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

/**
 * apimachinery's `IsValidPathSegmentName` (for a prefix, `IsValidPathSegmentPrefix`): what a name must not
 * be to stand in a URL's path, as the apiserver's messages say it.
 */
export function pathSegmentErrors(name: string, prefix = false): string[] {
  const errs = !prefix && (name === '.' || name === '..') ? [`may not be '${name}'`] : [];
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

/**
 * The URL path of a resource collection (`/api/v1/namespaces/ns/pods`, `/apis/g/v/shirts`) or, given a
 * name, of one object.
 *
 * @throws KubeError (`BadRequest`) for a name that is empty (whose path would be the collection's: a
 *   DELETE of it deletes the whole collection), or a name or namespace that is no path segment (`..`,
 *   `a/b`), as client-go's request builder refuses them: `invalid resource name "a/b": [may not contain '/']`.
 */
export function resourcePath(gvr: GroupVersionResource, namespace?: string, name?: string, subresource?: string): string {
  let path = gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
  if (namespace !== undefined && namespace !== '') {
    const errs = pathSegmentErrors(namespace);
    if (errs.length > 0) throw KubeError.badRequest(`invalid namespace ${goQuote(namespace)}: [${errs.join(' ')}]`);
    path += `/namespaces/${encodeURIComponent(namespace)}`;
  }
  path += `/${gvr.resource}`;
  if (name !== undefined) {
    if (name === '') throw KubeError.badRequest('resource name may not be empty');
    const errs = pathSegmentErrors(name);
    if (errs.length > 0) throw KubeError.badRequest(`invalid resource name ${goQuote(name)}: [${errs.join(' ')}]`);
    path += `/${encodeURIComponent(name)}`;
  }
  if (subresource !== undefined) path += `/${subresource}`;
  return path;
}
