/**
 * What the field manager needs from a write request: the manager's name (the `fieldManager` query,
 * else the User-Agent's product as the apiserver derives it), and the type, version, subresource, time
 * and reset fields of the write.
 */
import type { RestRequest } from '../restRequest.js';
import type { ResourceType, VersionConversion, WriteContext } from '../resourceType.js';
import { FieldSet } from './fieldSet.js';
import { builtinKindType, type TypeNode } from './schema.js';
import { zeroObject } from './zeroObjects.js';
import type { FieldManagerContext, VersionConverter } from './fieldManager.js';
import type { KubeObject } from '@kubekit/core';

/** The longest manager name derived from a User-Agent, in bytes (`FieldManagerMaxLength`). */
const maxManagerBytes = 128;

/**
 * The manager of a write without a `fieldManager`: the User-Agent up to its first `/`, without
 * unprintable characters, cut at 128 bytes (`prefixFromUserAgent` in handlers/rest.go).
 */
export function managerFromUserAgent(userAgent: string): string {
  const product = userAgent.split('/')[0];
  let out = '';
  let bytes = 0;
  for (const ch of product) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxManagerBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** The manager of a request: its `fieldManager`, else derived from its User-Agent. */
export function managerOf(r: RestRequest, fieldManager: string): string {
  if (fieldManager !== '') return fieldManager;
  const ua = r.req.headers['user-agent'];
  // buildManagerInfo names a manager without a name (no User-Agent, or none printable) "unknown".
  return managerFromUserAgent(typeof ua === 'string' ? ua : '') || 'unknown';
}

const builtinTypes = new WeakMap<ResourceType, TypeNode>();

/** The type the field manager walks objects of a resource with: its own, else its published OpenAPI schema's. */
export function typeOf(type: ResourceType): TypeNode {
  const own = type.managedFieldsType?.();
  if (own !== undefined) return own;
  let t = builtinTypes.get(type);
  if (t === undefined) {
    t = builtinKindType(type.names.group, type.names.version, type.names.kind);
    builtinTypes.set(type, t);
  }
  return t;
}

/**
 * The fields a status write's strategy resets (`GetResetFields` of the status strategies the embedded
 * server serves, kube-apiserver 1.34.4): the spec, and for some kinds parts of the metadata. What it does
 * not name (the rest of the metadata) the field manager records for the status writer, even where the
 * strategy then drops the change (a custom resource's labels).
 */
function statusResetPaths(type: ResourceType): string[][] {
  const { group, resource } = type.names;
  if (type.customResource === true) return [['spec']];
  if (group === 'apiextensions.k8s.io' || group === 'apiregistration.k8s.io' || group === 'flowcontrol.apiserver.k8s.io') return [['metadata'], ['spec']];
  if (group === '' && resource === 'pods') return [['spec'], ['metadata', 'deletionTimestamp'], ['metadata', 'ownerReferences']];
  if (group === 'apps' && resource === 'deployments') return [['spec'], ['metadata', 'labels']];
  return [['spec']];
}

/**
 * The fields a write's strategy resets (`GetResetFields`): the main resource of a kind with a status
 * subresource (and a namespace's finalize) never changes `status`; a status write, see {@link statusResetPaths}.
 */
function resetFields(type: ResourceType, subresource: string): FieldSet | undefined {
  if (!type.names.status) return undefined;
  const set = new FieldSet();
  if (type.names.group === 'certificates.k8s.io' && type.names.resource === 'certificatesigningrequests') {
    // csrStrategy, csrStatusStrategy and csrApprovalStrategy: a create records no field but metadata ones,
    // so a request created without them is never tracked by updates after (`skipNonAppliedManager`).
    const paths = subresource === '' ? [['spec'], ['status']] : subresource === 'status' ? [['spec'], ['status', 'conditions']] : [['spec'], ['status', 'certificate']];
    for (const path of paths) {
      let node = set;
      for (const k of path) node = node.child(`f:${k}`);
      node.member = true;
    }
    return set;
  }
  // A namespace's finalize strategy resets the status too (namespaceFinalizeStrategy.GetResetFields).
  if (subresource === '' || (type.names.group === '' && type.names.resource === 'namespaces' && subresource === 'finalize')) {
    set.child('f:status').member = true;
    return set;
  }
  if (subresource !== 'status') return undefined;
  for (const path of statusResetPaths(type)) {
    let node = set;
    for (const k of path) node = node.child(`f:${k}`);
    node.member = true;
  }
  return set;
}

/** The field manager's view of a write. */
export function fieldManagerContext(r: RestRequest, wctx: WriteContext): FieldManagerContext {
  return writeFieldManagerContext(r.type, r.info.subresource, wctx.now);
}

/** The field manager's view of a write of `type`'s objects through `subresource` at `now` (one the server makes itself). */
export function writeFieldManagerContext(type: ResourceType, subresource: string, now: string): FieldManagerContext {
  const { names } = type;
  const ignored = resetFields(type, subresource);
  return {
    type: typeOf(type), apiVersion: names.group === '' ? names.version : `${names.group}/${names.version}`,
    subresource, now, ...(ignored !== undefined ? { ignored } : {}),
    ...(type.managedFieldsType === undefined ? { empty: zeroObject(names.group, names.version, names.kind) } : {}),
    ...(type.versionConversion !== undefined ? { versions: versionConverter(type, type.versionConversion) } : {}),
  };
}

/** The field manager's view of a built-in resource's {@link VersionConversion}. */
function versionConverter(type: ResourceType, conversion: VersionConversion): VersionConverter {
  return {
    typeOf: (apiVersion) => {
      if (!conversion.versions.includes(apiVersion)) return undefined;
      const slash = apiVersion.indexOf('/');
      return slash < 0 ? builtinKindType('', apiVersion, type.names.kind) : builtinKindType(apiVersion.slice(0, slash), apiVersion.slice(slash + 1), type.names.kind);
    },
    convert: (object, from, to) => conversion.convert(object as KubeObject, from, to),
  };
}
