/**
 * The `meta.k8s.io/v1` (and `autoscaling/v1` Scale) component schemas that every OpenAPI v3 document
 * references, in the shape the apiserver publishes (abridged descriptions).
 */

const p = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** The reference to ObjectMeta. */
export const objectMetaRef = { $ref: `#/components/schemas/${p}.ObjectMeta` };

function str(description: string): Record<string, unknown> {
  return { type: 'string', description };
}

function time(description: string): Record<string, unknown> {
  return { type: 'string', format: 'date-time', description };
}

function map(description: string): Record<string, unknown> {
  return { type: 'object', additionalProperties: { type: 'string', default: '' }, description };
}

/** The shared component schemas. */
export function metaSchemas(): Record<string, unknown> {
  return {
    [`${p}.ObjectMeta`]: {
      description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
      type: 'object',
      properties: {
        annotations: map('Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.'),
        creationTimestamp: time('CreationTimestamp is a timestamp representing the server time when this object was created.'),
        deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.' },
        deletionTimestamp: time('DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.'),
        finalizers: { type: 'array', items: { type: 'string', default: '' }, description: 'Must be empty before the object is deleted from the registry.', 'x-kubernetes-list-type': 'set' },
        generateName: str('GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.'),
        generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state.' },
        labels: map('Map of string keys and values that can be used to organize and categorize (scope and select) objects.'),
        managedFields: { type: 'array', items: { $ref: `#/components/schemas/${p}.ManagedFieldsEntry` }, description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.' },
        name: str('Name must be unique within a namespace.'),
        namespace: str('Namespace defines the space within which each name must be unique.'),
        ownerReferences: {
          type: 'array', items: { $ref: `#/components/schemas/${p}.OwnerReference` },
          description: 'List of objects depended by this object.', 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge',
        },
        resourceVersion: str('An opaque value that represents the internal version of this object.'),
        selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
        uid: str('UID is the unique in time and space value for this object.'),
      },
    },
    [`${p}.ListMeta`]: {
      description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
      type: 'object',
      properties: {
        continue: str('continue may be set if the user set a limit on the number of items returned.'),
        remainingItemCount: { type: 'integer', format: 'int64', description: 'remainingItemCount is the number of subsequent items in the list which are not included in this list response.' },
        resourceVersion: str('String that identifies the server\'s internal version of this object.'),
        selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
      },
    },
    [`${p}.OwnerReference`]: {
      description: 'OwnerReference contains enough information to let you identify an owning object.',
      type: 'object',
      required: ['apiVersion', 'kind', 'name', 'uid'],
      properties: {
        apiVersion: str('API version of the referent.'),
        blockOwnerDeletion: { type: 'boolean', description: 'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.' },
        controller: { type: 'boolean', description: 'If true, this reference points to the managing controller.' },
        kind: str('Kind of the referent.'),
        name: str('Name of the referent.'),
        uid: str('UID of the referent.'),
      },
      'x-kubernetes-map-type': 'atomic',
    },
    [`${p}.ManagedFieldsEntry`]: {
      description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
      type: 'object',
      properties: {
        apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
        fieldsType: str('FieldsType is the discriminator for the different fields format and version.'),
        fieldsV1: { type: 'object', description: 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.' },
        manager: str('Manager is an identifier of the workflow managing these fields.'),
        operation: str("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
        subresource: str('Subresource is the name of the subresource used to update that object.'),
        time: time('Time is the timestamp of when the ManagedFields entry was added.'),
      },
    },
    [`${p}.Status`]: {
      description: 'Status is a return value for calls that don\'t return other objects.',
      type: 'object',
      properties: {
        apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
        code: { type: 'integer', format: 'int32', description: 'Suggested HTTP return code for this status, 0 if not set.' },
        details: { type: 'object', description: 'Extended data associated with the reason.', 'x-kubernetes-preserve-unknown-fields': true },
        kind: str('Kind is a string value representing the REST resource this object represents.'),
        message: str('A human-readable description of the status of this operation.'),
        metadata: { allOf: [{ $ref: `#/components/schemas/${p}.ListMeta` }], default: {}, description: 'Standard list metadata.' },
        reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
        status: str('Status of the operation. One of: "Success" or "Failure".'),
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
    },
    [`${p}.DeleteOptions`]: {
      description: 'DeleteOptions may be provided when deleting an API object.',
      type: 'object',
      properties: {
        apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
        dryRun: { type: 'array', items: { type: 'string', default: '' }, description: 'When present, indicates that modifications should not be persisted.' },
        gracePeriodSeconds: { type: 'integer', format: 'int64', description: 'The duration in seconds before the object should be deleted.' },
        kind: str('Kind is a string value representing the REST resource this object represents.'),
        preconditions: { type: 'object', description: 'Must be fulfilled before a deletion is carried out.', properties: { resourceVersion: str('Specifies the target ResourceVersion'), uid: str('Specifies the target UID.') } },
        propagationPolicy: str('Whether and how garbage collection will be performed.'),
      },
    },
    [`${p}.Patch`]: { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' },
    'io.k8s.api.autoscaling.v1.Scale': {
      description: 'Scale represents a scaling request for a resource.',
      type: 'object',
      properties: {
        apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
        kind: str('Kind is a string value representing the REST resource this object represents.'),
        metadata: { allOf: [objectMetaRef], default: {}, description: "Standard object metadata." },
        spec: { type: 'object', description: 'spec defines the behavior of the scale.', properties: { replicas: { type: 'integer', format: 'int32', description: 'replicas is the desired number of instances for the scaled object.' } } },
        status: { type: 'object', description: 'status is the current status of the scale.', required: ['replicas'], properties: { replicas: { type: 'integer', format: 'int32', default: 0, description: 'replicas is the actual number of observed instances of the scaled object.' }, selector: str('selector is the label query over pods that should match the replicas count.') } },
      },
      'x-kubernetes-group-version-kind': [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }],
    },
  };
}
