/**
 * The Go names of the apiserver's internal types, as some of its messages print them (`*core.ConfigMap`,
 * `core.ConfigMap`, `*unstructured.UnstructuredList`).
 */
import { KubeError } from '@kubekit/core';
import type { ResourceType } from '../resourceType.js';

/** The package of a group's internal types: the group's first label, but `core` and `rbac` (events.k8s.io Events are core Events). */
export function internalPackage(group: string): string {
  if (group === '' || group === 'events.k8s.io') return 'core';
  if (group === 'rbac.authorization.k8s.io') return 'rbac';
  return group.split('.')[0];
}

/** The Go type of a kind's objects (or lists) as `%T` prints it. */
export function goTypeName(type: ResourceType, list: boolean): string {
  if (type.customResource === true) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const group = type.internalGroup ?? type.names.group;
  return `*${internalPackage(group)}.${type.names.kind}${list ? 'List' : ''}`;
}

/**
 * `transformResponseObject`'s 406 for PartialObjectMetadata asked of a list, or PartialObjectMetadataList of an
 * object: of the kind's objects, or of `goType` (a subresource's, the Scale's `*autoscaling.Scale`).
 */
export function notAcceptableConversion(type: ResourceType, asked: string, list: boolean, goType = goTypeName(type, list)): KubeError {
  return new KubeError('NotAcceptable', `you requested ${asked}, but the requested object is ${list ? 'a list' : 'not a list'} (${goType})`);
}
