/**
 * The Kubernetes object model as it travels on the wire: objects, lists, watch events and `Status`.
 *
 * These mirror `k8s.io/apimachinery/pkg/apis/meta/v1` in their JSON form. Optional fields are optional
 * because the apiserver omits them when empty.
 */

/** An `apiVersion` string: `v1` for the core group, `<group>/<version>` otherwise. */
export type ApiVersion = `${string}/${string}` | `v${number}` | `v${number}${'alpha' | 'beta'}${number}`;

/** A reference from a dependent object to its owner (`metadata.ownerReferences[]`). */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** One entry of `metadata.managedFields` (server-side apply bookkeeping). */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** `metadata` of every persisted object. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  selfLink?: string;
}

/** `metadata` of a list. */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  selfLink?: string;
}

/** Any Kubernetes object. `TSpec`/`TStatus` type the conventional `spec` and `status` stanzas. */
export interface KubeObject<TSpec = unknown, TStatus = unknown> {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: TSpec;
  status?: TStatus;
  [field: string]: unknown;
}

/** A list of objects, as returned by a list request. */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

/** The watch event types of `k8s.io/apimachinery/pkg/watch`. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * One event of a watch stream. `ERROR` carries a `Status`; every other type carries an object (a
 * `BOOKMARK` carries only `metadata.resourceVersion` and perhaps annotations).
 */
export type WatchEvent<T extends KubeObject = KubeObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }
  | { type: 'BOOKMARK'; object: Pick<T, 'apiVersion' | 'kind' | 'metadata'> }
  | { type: 'ERROR'; object: Status };

/** One cause inside `Status.details.causes`. */
export interface StatusCause {
  /** A machine-readable cause, such as `FieldValueInvalid`. */
  reason?: string;
  message?: string;
  /** The field path that caused the error, such as `spec.replicas`. */
  field?: string;
}

/** `Status.details`. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The `Status` object the apiserver returns for failures (and for some successful deletes). */
export interface Status {
  apiVersion?: 'v1';
  kind?: 'Status';
  metadata?: ListMeta;
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}
