/**
 * What the generic REST handler needs to know about one served resource (one group, version and
 * resource): its names and scope for discovery, and its strategy — how stored objects are shown in
 * this version, how requests are decoded, prepared and validated, how objects are selected and printed.
 *
 * Built-in kinds, CustomResourceDefinitions and custom resources each implement it.
 */
import type { ReplicasPathMappings } from './managedFields/scaleHandler.js';
import type { FieldError, GroupResource, KubeError, KubeObject } from '@kubekit/core';
import type { TypeNode } from './managedFields/schema.js';
import type { StoredResource } from './storage/objectStore.js';
import type { UserInfo } from './rbacAuthorizer.js';
import type { WrittenTexts } from './internal/rawJSON.js';
import type { RequestContext } from './internal/requestContext.js';

/** A field set: field label → value, or a getter computing one field on demand. */
export type FieldSet = Readonly<Record<string, string>> | ((field: string) => string | undefined);

/** A column of a server-side `Table`. */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** `spec.versions[].subresources.scale` of a resource. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  /** Computes `status.selector` of the Scale (built-in kinds: their `spec.selector` as text). */
  selector?: (object: KubeObject) => string;
  /**
   * The replicas path of each group-version the resource is served in (`null`: no scale subresource in
   * that version), for the managed fields of writes through `/scale`. @defaultValue this version's path only
   */
  replicasPathMappings?: ReplicasPathMappings;
}

/** Names, scope and capabilities, as discovery shows them. */
export interface ResourceNames {
  group: string;
  version: string;
  /** The plural, as in URLs. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  verbs: readonly string[];
  /**
   * How names are validated: DNS-1123 subdomains (most kinds), labels (namespaces), DNS-1035 labels
   * (Services), path segments (core/v1 Events), IP addresses in canonical form (IPAddresses, whose
   * `generateName` is taken as the name as it is).
   */
  nameValidation: 'subdomain' | 'label' | 'dns1035' | 'pathSegment' | 'ip';
  /** Whether `/status` is served. */
  status: boolean;
  /** The `/scale` subresource, when served. */
  scale?: ScaleSubresource;
  /** Other subresources that read and write the object itself, with get, patch and update (a Pod's `ephemeralcontainers`). */
  objectSubresources?: readonly string[];
  /** Subresources that take a kind of their own (a Pod's `eviction`, created as a policy/v1 Eviction), for discovery. */
  kindSubresources?: readonly { subresource: string; group: string; version: string; kind: string; verbs: readonly string[] }[];
}

/** The context of a write request. */
/** Where a write is sent: its URL's namespace (empty for a cluster-scoped kind) and name (empty for a POST). */
export interface WriteTarget {
  namespace: string;
  name: string;
}

export interface WriteContext {
  /** `Strict`, `Warn` or `Ignore` (the request's `fieldValidation`). */
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  /** Warnings to return in `Warning` headers. */
  warnings: string[];
  /** The duplicate fields of the request body (`duplicate field "spec.x"`), in document order. */
  duplicateFields: string[];
  /**
   * The request's body as text: a JSON patch's, whose `test` operations compare values as written
   * (patch.ts), and where a typed decoder's error finds how a number beyond float64 was written
   * (`json: cannot unmarshal number 1e400 into Go struct field …`; parsed, it is only ±Infinity).
   */
  bodyText?: string;
  /**
   * The paths (keys and indexes, from the object's root) where a JSON body or patch wrote an integral
   * float (`1.0`, `1e2`): Go decodes it as a float64, which `reflect.DeepEqual` does not take for the
   * stored int64, so a custom resource's generation moves (customResourceStrategy.PrepareForUpdate).
   */
  integralFloats?: string[][];
  /**
   * A JSON patch for a custom resource whose text holds float literals: set while the body is read, so
   * that each attempt's patching keeps the texts it places and finds where they end up (`integralFloats`,
   * and with `overflow`, a number beyond float64 taken under `Ignore`, `patchOverflow`).
   */
  jsonPatchFloats?: { overflow: boolean };
  /**
   * A number beyond float64 that a merge or JSON patch taken under `Ignore` put in the object (`1e400`):
   * a custom resource's decoder of the result refuses it (a 422 on `patch`) instead of storing null.
   */
  patchOverflow?: string;
  /**
   * The error of a strict decoding failure (`strict decoding error: …`) under `Strict`: a create or
   * update decodes its body with the kind's codec, which names the kind and version (`Widget in version
   * "v1" cannot be handled as a Widget: …`); a patch's is a 422 on `patch` quoting what was patched
   * (handlers/patch.go). @defaultValue a 400 with the message as it is
   */
  strictError?: (message: string) => KubeError;
  /** Whether the object decoded is a patch's result (its decoding errors are {@link WriteContext.strictError}'s 422 on `patch`). */
  patched?: boolean;
  /** A patch's result as the patcher holds its bytes (the text its 422 quotes), where messages print them. */
  patchedText?: () => string;
  /**
   * A JSON patch's result again, with the members whose values the patch placed as text (json-patch keeps
   * them as written, so their keys are in the patch's order, not sorted): for the order of its unknown fields.
   */
  jsonPatchedTexts?: () => { doc: unknown; texts: WrittenTexts };
  /**
   * Whether that result is a strategic merge patch's, which the patcher converts into the Go type with
   * `runtime.DefaultUnstructuredConverter` rather than decoding it: its type errors are the converter's.
   */
  converted?: boolean;
  /**
   * Whether the object decoded went through a Go map (a strategic merge patch's result, an apply's): a
   * member its Go type keeps as raw JSON text (a ControllerRevision's `data`, a `runtime.RawExtension`) is
   * then the map's JSON, its keys in Go's sorted order, not the text it was written as.
   */
  viaMap?: boolean;
  /** The subresource written (`''`, `status` or `scale`). */
  subresource: string;
  /** Whether the write is a dry run (`dryRun=All`): allocators then hold nothing. */
  dryRun?: boolean;
  /**
   * The request's deadline and cancellation (none for the server's own writes): what is left of the deadline
   * bounds the admission webhooks, and nothing is stored once it has expired or the client has gone.
   */
  request?: RequestContext;
  /** The current time (RFC 3339), for timestamps. */
  now: string;
  /** Who the request acts as (a CertificateSigningRequest's requestor). @defaultValue unknown */
  user?: UserInfo;
}

/**
 * One served resource and its strategy. Objects passed to and returned by these methods are in this
 * type's version ("external" objects) unless named `stored`.
 */
export interface ResourceType {
  readonly names: ResourceNames;
  /** The group-resource, for error messages and storage. */
  readonly groupResource: GroupResource;
  /** The storage bucket (shared by every version of the resource). */
  readonly bucket: string;
  /**
   * The group of the internal kind validation errors name, when not the served one (events.k8s.io Events
   * are validated as the core Event: `Event "x" is invalid`). @defaultValue `names.group`
   */
  readonly internalGroup?: string;
  /**
   * The group, version and kind objects are stored as, when another resource's (discovery's
   * `storageVersionHash` is of the storage version). @defaultValue the served ones
   */
  readonly storageKind?: { group: string; version: string; kind: string };
  /**
   * The version objects of the kind are stored in when the apiserver stores them in another version of the
   * same kind than it serves (resource.k8s.io's v1beta2 in 1.34): discovery's `storageVersionHash` is of it.
   * @defaultValue the served version
   */
  readonly storageVersion?: string;
  /** Whether `PUT` without `metadata.resourceVersion` is allowed (unconditional update). */
  readonly allowUnconditionalUpdate: boolean;
  /**
   * The strategy's `AllowCreateOnUpdate`: whether a `PUT` of an object that does not exist creates it
   * (Services, Endpoints, Events, Leases, the RBAC kinds) rather than answering 404. @defaultValue false
   */
  readonly allowCreateOnUpdate?: boolean;
  /** A `Warning` to return for every request (deprecated versions). */
  readonly deprecationWarning?: string;
  /** Whether DELETE answers with the deleted object (else with a `Status`). */
  readonly deleteReturnsObject: boolean;
  /**
   * Whether PATCH takes `application/strategic-merge-patch+json`: the built-in kinds and
   * CustomResourceDefinitions (Go types with patch strategies) do, custom resources never do, whatever
   * their group (the apiextensions-apiserver leaves the type out of their supported patch types).
   */
  readonly strategicMergePatch: boolean;
  /**
   * Whether this is a custom resource, served by the apiextensions-apiserver's handler rather than a
   * built-in REST storage (some answers differ: an unknown subresource is a `NotFound` of the object).
   * @defaultValue false
   */
  readonly customResource?: boolean;
  /**
   * Whether the apiserver serves this resource's reads from its watch cache, which waits up to 3 s for a
   * resourceVersion it has not reached; without one (Events: `DefaultWatchCacheSizes` sets theirs to 0),
   * reads go to etcd, which answers such a version at once. @defaultValue true
   */
  readonly watchCache?: boolean;
  /** Whether a DELETE without a propagation policy orphans the dependents (batch/v1 Jobs and core/v1 ReplicationControllers, for compatibility). */
  readonly orphanDependentsByDefault?: boolean;
  /** The Warning of a DELETE without a propagation policy (the Job REST's: its default orphans the pods). @defaultValue none */
  readonly orphanWarning?: string;

  /**
   * Shows a stored object in this version (read defaulting and conversion). `fresh`: as read from etcd (a GET
   * without a resourceVersion), converted anew, not as the watch cache holds it converted already.
   */
  fromStorage(stored: KubeObject, fresh?: boolean): KubeObject | Promise<KubeObject>;
  /** Converts an external object to what is stored. */
  toStorage(object: KubeObject): KubeObject | Promise<KubeObject>;

  /** The field set of an external object, for field selectors (a record, or a lazy getter). */
  fieldSet(object: KubeObject): FieldSet;
  /**
   * Checks a field selector label (and may rewrite it), as the apiserver's field label conversion.
   *
   * @throws KubeError (`BadRequest`) for labels the resource does not support.
   */
  convertFieldLabel(label: string, value: string): [string, string];
  /**
   * The keys of the stored objects whose field `label` currently equals `value`, from an index, or
   * undefined when no index serves the label.
   */
  lookupIndex?(label: string, value: string): ReadonlySet<string> | undefined;

  /** The columns of this version's `Table`. */
  tableColumns(): TableColumnDefinition[];
  /** The cells of one object's row (`Name` first). */
  tableCells(object: KubeObject, now: number): unknown[];
  /**
   * The order of a list's rows where the printer sorts them (FlowSchemas by matching precedence, then
   * name). @defaultValue the list's order
   */
  compareTableRows?(a: KubeObject, b: KubeObject): number;
  /**
   * The metadata a row carries (`includeObject=Metadata`) where it differs from the object's: the
   * apiserver prints rows from its internal objects, which lack annotations that only the versioned
   * form carries (a DaemonSet's template generation). @defaultValue the object's metadata
   */
  tableRowMetadata?(object: KubeObject): KubeObject['metadata'];

  /**
   * Decodes a write's body into an external object: checks apiVersion/kind, then prunes unknown
   * fields (reporting them per `fieldValidation`) and applies defaults of this version.
   *
   * @throws KubeError (`BadRequest`) for strict decoding errors and mismatched apiVersion/kind.
   */
  decode(body: unknown, ctx: WriteContext): KubeObject;
  /** Prepares a new object before validation (status dropped, generation set, ...). */
  prepareForCreate(object: KubeObject, ctx: WriteContext): void;
  /** Prepares an update (status/spec separation, generation), `old` is the current external object. */
  prepareForUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): void;
  /** Validates a new object (metadata included). */
  validateCreate(object: KubeObject, ctx: WriteContext): FieldError[];
  /** Validates an update (metadata included). */
  validateUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): FieldError[];
  /**
   * The kind's in-tree validating admission plugins, run on a create (`old` undefined) or update that
   * validated, before the validating webhooks (the `Priority` plugin on PriorityClasses).
   * @throws KubeError the plugin's refusal
   */
  admit?(object: KubeObject, old: KubeObject | undefined, ctx: WriteContext): void;
  /**
   * The storage's own check of a create or update, after mutating admission and before the strategy (the
   * RBAC kinds' escalation check); `old` is the stored object of an update.
   * @throws KubeError the storage's refusal
   */
  guardWrite?(object: KubeObject, old: KubeObject | undefined, ctx: WriteContext, target: WriteTarget): void;

  /**
   * The versions of this resource whose objects have fields of their own, and the conversion between them:
   * the field manager compares a write in the version of each manager (a HorizontalPodAutoscaler's managers
   * of autoscaling/v1 and v2). Without it, the resource's versions have the same fields (custom resources)
   * and other groups are none of its.
   */
  readonly versionConversion?: VersionConversion;

  /**
   * The type server-side apply walks this resource's objects with (list types, map types, declared
   * fields). @defaultValue the built-in kinds' type, from their patch strategies
   */
  managedFieldsType?(): TypeNode;

  /**
   * A REST storage's `Delete` that refuses some names before looking them up (system PriorityClasses);
   * a DELETE of a collection does not call it, as the generic store's `DeleteCollection` does not.
   * @throws KubeError the refusal
   */
  refuseDeletion?(name: string): void;
  /** Adjusts an object being marked for deletion (deletionTimestamp set, finalizers pending). */
  markDeleting?(object: KubeObject): void;
  /** Whether a deletion waits for more than `metadata.finalizers` (a namespace waits for its content). */
  deferDeletion?(object: KubeObject): boolean;
  /**
   * A kind with graceful deletion (the strategy's `CheckGracefulDelete`; Pods): the grace period, in
   * seconds, a deletion of `object` gets when the request asked for `requested` (undefined: none).
   * Without it, a deletion is immediate (or waits for finalizers).
   */
  gracefulDeletePeriod?(object: KubeObject, requested: number | undefined): number;
}

/** {@link ResourceType.versionConversion}. */
export interface VersionConversion {
  /** The versions (`group/version`), this type's among them. */
  readonly versions: readonly string[];
  /** An object in version `from` as version `to` shows it (both among {@link versions}). */
  convert(object: KubeObject, from: string, to: string): KubeObject;
}

/** What a write of `type`'s objects names to the store: its group-resource (for errors) and its bucket. */
export function storedResourceOf(type: ResourceType): StoredResource {
  return { ...type.groupResource, bucket: type.bucket };
}
