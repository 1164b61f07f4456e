/**
 * The built-in definitions a CRD's OpenAPI v3 document refers to (k8s.io/apimachinery meta/v1 and
 * autoscaling/v1 Scale), in their v3 shape: references with siblings wrapped in `allOf`, struct-typed
 * members defaulted to `{}`, list and map extensions as generated. Field descriptions of these
 * built-in types are left out; their structure (names, types, formats, requirements, extensions) is
 * complete.
 */

/** A JSON object of an OpenAPI document. */
export type OpenAPIObject = { [key: string]: unknown };

/** Definition names of the built-in types a CRD document refers to. */
export const objectMetaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
/** See {@link objectMetaName}. */
export const listMetaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
/** See {@link objectMetaName}. */
export const statusName = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
/** See {@link objectMetaName}. */
export const patchName = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
/** See {@link objectMetaName}. */
export const deleteOptionsName = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
/** See {@link objectMetaName}. */
export const scaleName = 'io.k8s.api.autoscaling.v1.Scale';

/** `#/components/schemas/<name>`. */
export function ref(name: string): string {
  return `#/components/schemas/${name}`;
}

const str = (): OpenAPIObject => ({ type: 'string', default: '' });
const optStr = (): OpenAPIObject => ({ type: 'string' });
const int64 = (): OpenAPIObject => ({ type: 'integer', format: 'int64' });
const int32 = (): OpenAPIObject => ({ type: 'integer', format: 'int32' });
const bool = (): OpenAPIObject => ({ type: 'boolean' });
const wrapped = (name: string, extra: OpenAPIObject = {}): OpenAPIObject => ({ ...extra, allOf: [{ $ref: ref(name) }] });
const stringMap = (): OpenAPIObject => ({ type: 'object', additionalProperties: { type: 'string', default: '' } });
const stringList = (listType: string): OpenAPIObject => ({ type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': listType });

const timeName = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const fieldsV1Name = 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1';
const managedFieldsName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry';
const ownerReferenceName = 'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference';
const statusDetailsName = 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails';
const statusCauseName = 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause';
const preconditionsName = 'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions';
const scaleSpecName = 'io.k8s.api.autoscaling.v1.ScaleSpec';
const scaleStatusName = 'io.k8s.api.autoscaling.v1.ScaleStatus';

const typeMeta = (): OpenAPIObject => ({ apiVersion: optStr(), kind: optStr() });

/** The definitions of the meta/v1 types, by name, with the names each one depends on. */
const definitions: Record<string, { schema: () => OpenAPIObject; deps: string[] }> = {
  [objectMetaName]: {
    deps: [managedFieldsName, ownerReferenceName, timeName],
    schema: () => ({
      type: 'object',
      properties: {
        annotations: stringMap(),
        creationTimestamp: wrapped(timeName),
        deletionGracePeriodSeconds: int64(),
        deletionTimestamp: wrapped(timeName),
        finalizers: { ...stringList('set'), 'x-kubernetes-patch-strategy': 'merge' },
        generateName: optStr(),
        generation: int64(),
        labels: stringMap(),
        managedFields: { type: 'array', items: wrapped(managedFieldsName, { default: {} }), 'x-kubernetes-list-type': 'atomic' },
        name: optStr(),
        namespace: optStr(),
        ownerReferences: {
          type: 'array', items: wrapped(ownerReferenceName, { default: {} }),
          'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge',
        },
        resourceVersion: optStr(),
        selfLink: optStr(),
        uid: optStr(),
      },
    }),
  },
  [managedFieldsName]: {
    deps: [fieldsV1Name, timeName],
    schema: () => ({
      type: 'object',
      properties: {
        apiVersion: optStr(), fieldsType: optStr(), fieldsV1: wrapped(fieldsV1Name), manager: optStr(),
        operation: optStr(), subresource: optStr(), time: wrapped(timeName),
      },
    }),
  },
  [ownerReferenceName]: {
    deps: [],
    schema: () => ({
      type: 'object',
      required: ['apiVersion', 'kind', 'name', 'uid'],
      properties: { apiVersion: str(), blockOwnerDeletion: bool(), controller: bool(), kind: str(), name: str(), uid: str() },
      'x-kubernetes-map-type': 'atomic',
    }),
  },
  [timeName]: { deps: [], schema: () => ({ type: 'string', format: 'date-time' }) },
  [fieldsV1Name]: { deps: [], schema: () => ({ type: 'object' }) },
  [listMetaName]: {
    deps: [],
    schema: () => ({ type: 'object', properties: { continue: optStr(), remainingItemCount: int64(), resourceVersion: optStr(), selfLink: optStr() } }),
  },
  [statusName]: {
    deps: [listMetaName, statusDetailsName],
    schema: () => ({
      type: 'object',
      properties: {
        ...typeMeta(), code: int32(), details: wrapped(statusDetailsName), message: optStr(),
        metadata: wrapped(listMetaName, { default: {} }), reason: optStr(), status: optStr(),
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
    }),
  },
  [statusDetailsName]: {
    deps: [statusCauseName],
    schema: () => ({
      type: 'object',
      properties: {
        causes: { type: 'array', items: wrapped(statusCauseName, { default: {} }), 'x-kubernetes-list-type': 'atomic' },
        group: optStr(), kind: optStr(), name: optStr(), retryAfterSeconds: int32(), uid: optStr(),
      },
    }),
  },
  [statusCauseName]: { deps: [], schema: () => ({ type: 'object', properties: { field: optStr(), message: optStr(), reason: optStr() } }) },
  [patchName]: { deps: [], schema: () => ({ type: 'object' }) },
  [preconditionsName]: { deps: [], schema: () => ({ type: 'object', properties: { resourceVersion: optStr(), uid: optStr() } }) },
  [deleteOptionsName]: {
    deps: [preconditionsName],
    schema: () => ({
      type: 'object',
      properties: {
        ...typeMeta(), dryRun: stringList('atomic'), gracePeriodSeconds: int64(), ignoreStoreReadErrorWithClusterBreakingPotential: bool(),
        orphanDependents: bool(), preconditions: wrapped(preconditionsName), propagationPolicy: optStr(),
      },
    }),
  },
  [scaleName]: {
    deps: [objectMetaName, scaleSpecName, scaleStatusName],
    schema: () => ({
      type: 'object',
      properties: {
        ...typeMeta(), metadata: wrapped(objectMetaName, { default: {} }),
        spec: wrapped(scaleSpecName, { default: {} }), status: wrapped(scaleStatusName),
      },
      'x-kubernetes-group-version-kind': [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }],
    }),
  },
  [scaleSpecName]: { deps: [], schema: () => ({ type: 'object', properties: { replicas: int32() } }) },
  [scaleStatusName]: {
    deps: [],
    schema: () => ({ type: 'object', required: ['replicas'], properties: { replicas: { ...int32(), default: 0 }, selector: optStr() } }),
  },
};

/** Adds `name` and everything it depends on to `into` (kube-openapi's `buildDefinitionRecursively`). */
export function addBuiltinDefinition(name: string, into: Record<string, unknown>): void {
  const stack = [name];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const d = definitions[n];
    if (d === undefined || Object.hasOwn(into, n)) continue;
    into[n] = d.schema();
    stack.push(...d.deps);
  }
}

/** The TypeMeta `apiVersion` and `kind` properties with their documented descriptions. */
export function typeMetaProperties(): { apiVersion: OpenAPIObject; kind: OpenAPIObject } {
  return {
    apiVersion: {
      description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
      type: 'string',
    },
    kind: {
      description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
      type: 'string',
    },
  };
}
