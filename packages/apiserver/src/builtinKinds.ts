/**
 * The built-in kinds the embedded server stores: Namespaces, ConfigMaps, Secrets, Pods and
 * coordination.k8s.io Leases — generic storage with each kind's field selectors (from
 * `@kubekit/attrs`), Table columns, and the few strategy rules operators notice (namespace phase and
 * finalizer, Secret `stringData`, config key validation, Pod status kept apart from spec).
 *
 * Fields a kind's published schema (builtinSchemas.ts) does not know are dropped, as decoding into the
 * apiserver's Go types drops them, and reported per `fieldValidation`; there is no controller behind
 * them (Pods are never scheduled or run). The workload kinds are in builtinWorkloads.ts, Nodes in nodeKinds.ts, CertificateSigningRequests in certificateKinds.ts, Events in eventKinds.ts,
 * Endpoints and EndpointSlices in endpointKinds.ts, ResourceQuotas in resourceQuotaKinds.ts, LimitRanges in
 * limitRangeKinds.ts (their admission plugins in quotaAdmission.ts and limitRanger.ts), RuntimeClasses in
 * runtimeClassKinds.ts (their admission plugin in runtimeClassAdmission.ts; the pod plugins before it in
 * podAdmission.ts), Services, ServiceAccounts, PersistentVolumeClaims and the RBAC kinds in
 * builtinServiceKinds.ts; each is a {@link BuiltinSpec} served by {@link BuiltinResourceType}.
 */
import { FieldError, FieldPath, KubeError, forbidden, goQuote, invalid, required, tooLong, type GroupResource, type KubeObject } from '@kubekit/core';
import { builtinResourceFields, convertBuiltinFieldLabel, type ResourceFields } from '@kubekit/attrs';
import { reportFieldProblems, strictDecodingErrorLimit } from './internal/fieldValidation.js';
import { internalPackage } from './internal/goTypeNames.js';
import { otherKindReason, versionOf } from './internal/schemeKinds.js';
import { isConfigMapKey, isQualifiedName } from './internal/semantics.js';
import { goJSONSyntaxError, goUnmarshalTypeError } from './internal/goJSON.js';
import { pruneUnknownFields } from './internal/pruneUnknownFields.js';
import { builtinKindSchema } from './builtinSchemas.js';
import { convertErrorFromUnstructured, decodeErrorAsGo, encodeAsGo, storedAsProtobuf } from './builtinGoJSON.js';
import { defaultPod, initialPodStatus } from './podDefaults.js';
import { validatePod, validatePodCreate, validatePodUpdate } from './podValidation.js';
import { prepareEphemeralContainersUpdate, validateEphemeralContainersUpdate } from './podEphemeralContainers.js';
import { preparePodStatusUpdate, validatePodStatusUpdate } from './podStatus.js';
import { checkMetadataTimestamps, decodeObjectShape, isDecodeError, standardFinalizers, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta.js';
import type { FieldSet, ResourceNames, ResourceType, TableColumnDefinition, VersionConversion, WriteContext, WriteTarget } from './resourceType.js';
import { bucketOf } from './storage/objectStore.js';
import { ageCell, builtinAgeColumn, nameColumn } from './table.js';
import { publishedTableColumns } from './builtinTableColumns.js';
import { assignOwn, cloneJSON, isObject, setOwn } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { applyAppArmorVersionSkew, podNameWarning, podSpecWarnings, podStatusWarnings } from './podWarnings.js';
import { podConnectSubresources } from './podConnect.js';
import { prepareResizeUpdate, validateResizeUpdate } from './podResize.js';
import { proxySubresource } from './proxySubresources.js';

/** One Table column of a built-in kind and how its cell is computed. */
export interface BuiltinColumn {
  def: Omit<TableColumnDefinition, 'format' | 'description'> & { format?: string; description?: string };
  cell: (o: KubeObject, now: number) => unknown;
}

/** The default Table's `Created At` column (after `Name`, no `Age`), of kinds without a printer of their own. */
export const createdAtColumn: BuiltinColumn = { def: { name: 'Created At', type: 'date', priority: 0, description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' }, cell: (o) => o.metadata.creationTimestamp ?? '' };

/** How a subresource that writes the object itself prepares and validates an update (the apiserver's strategy for it). */
export interface SubresourceStrategy {
  /** Keeps of the new object what the subresource may change, the rest from the old one. */
  prepareForUpdate(o: KubeObject, old: KubeObject, ctx?: WriteContext): void;
  /**
   * Whether `prepareForUpdate` leaves the status the subresource writes (a CertificateSigningRequest's
   * `approval`, its conditions). @defaultValue false: the old status is put back afterwards
   */
  writesStatus?: boolean;
  /**
   * The validation, in place of `validate` and `validateUpdate`: the whole list, given the errors of
   * `ValidateObjectMetaUpdate` (`meta`) to place where the subresource's function places them (or drop,
   * where it answers with one error alone).
   */
  validateUpdate(o: KubeObject, old: KubeObject, meta: FieldError[]): FieldError[];
}

/**
 * The storage of another resource that a kind is a view of (events.k8s.io Events are stored as core
 * Events): its group-resource, and the conversions between its stored form and this kind's.
 */
export interface BuiltinStorage {
  groupResource: GroupResource;
  /** The kind and version stored. */
  kind: { group: string; version: string; kind: string };
  /** The stored object in this kind's version. */
  fromStorage: (stored: KubeObject) => KubeObject;
  /** This kind's object in the stored form (written as encoding/json writes it afterwards). */
  toStorage: (o: KubeObject) => KubeObject;
}

/** How one built-in kind is served: names, Table columns and its strategy rules. */
export interface BuiltinSpec {
  names: Omit<ResourceNames, 'verbs' | 'categories' | 'listKind'> & { categories?: string[] };
  /** Stored in another resource's bucket, converted. @defaultValue its own bucket, as it is */
  storage?: BuiltinStorage;
  /** {@link ResourceType.storageVersion} */
  storageVersion?: string;
  /**
   * The group of the internal kind that validation errors name, when not the served one
   * (`Event "x" is invalid` for events.k8s.io: its internal type is the core Event). @defaultValue the group
   */
  internalGroup?: string;
  /**
   * A printer of its own, in place of `columns`, `age` and `wide`: every cell of a row, for the columns
   * the apiserver publishes in their order (the Event printer puts `Name` last).
   */
  printer?: (o: KubeObject, now: number) => unknown[];
  /** The columns between `Name` and `Age`. */
  columns?: BuiltinColumn[];
  /** The columns after `Age` (kubectl's `-o wide` ones, priority 1). */
  wide?: BuiltinColumn[];
  /** {@link ResourceType.compareTableRows}: the printer's order of a list's rows. */
  compareTableRows?: (a: KubeObject, b: KubeObject) => number;
  /** The annotations only the versioned form carries: left out of Table rows' metadata. */
  versionedAnnotations?: readonly string[];
  /** Whether the Table has an `Age` column. @defaultValue true */
  age?: boolean;
  /** Whether `metadata.generation` starts at 1 and grows with each change of `spec`. */
  generation?: boolean;
  /** The member whose changes bump the generation. @defaultValue `spec` */
  generationField?: string;
  /** The strategy's `PrepareForCreate`; `warnings` takes what it warns about (the pod's AppArmor version skew). */
  prepareForCreate?: (o: KubeObject, warnings: string[], ctx: WriteContext) => void;
  /** The kind's own rules for an update of the main resource (not `/status`), after the generic ones. */
  prepareForUpdate?: (o: KubeObject, old: KubeObject) => void;
  /** Normalises a decoded body (Secret `stringData`). */
  normalize?: (o: KubeObject, ctx: WriteContext) => void;
  /** Applies the kind's defaults (the registered defaulting functions) to a decoded object. */
  defaults?: (o: KubeObject) => void;
  /** The kind's validation of a create, and of an update (`old`: the object it replaces). */
  validate?: (o: KubeObject, old?: KubeObject) => FieldError[];
  /**
   * Errors a create's strategy lists before its validation function's, metadata included (resource.k8s.io's
   * `AuthorizedForAdmin`, which reads the namespace).
   */
  validateCreateFirst?: (o: KubeObject) => FieldError[];
  /** Validation of a create only, after `validate` (a Pod's `ValidatePodCreate`). */
  validateCreate?: (o: KubeObject) => FieldError[];
  /** Whether the kind's update validation runs ValidateObjectMeta on the new object too (ConfigMaps, Secrets, Namespaces). */
  updateValidatesMeta?: boolean;
  /**
   * Whether the kind's strategy validates its metadata. @defaultValue true. When false (core/v1 Events), the
   * kind's errors come alone, and rest.BeforeCreate's `ValidateObjectMetaAccessor` (names as path segments)
   * runs only when there are none; an update gets the generic metadata checks only.
   */
  strategyValidatesMeta?: boolean;
  /** Validation of an update only (immutable fields), on top of `validate`. */
  validateUpdate?: (o: KubeObject, old: KubeObject) => FieldError[];
  /**
   * Validation of an update of the object (not of `/status`), in place of the strategy's metadata checks,
   * `validate` and `validateUpdate`: the whole list, given the errors of rest.BeforeUpdate's generic
   * metadata checks (`generic`), for a kind whose strategy places its own metadata checks among the rest
   * (a ReplicationController's runs its spec checks twice, around `ValidateObjectMetaUpdate`).
   */
  validateWholeUpdate?: (o: KubeObject, old: KubeObject, generic: FieldError[]) => FieldError[];
  /** The strategy's `WarningsOnCreate`, sent once the object validated. */
  warningsOnCreate?: (o: KubeObject) => string[];
  /** The strategy's `WarningsOnUpdate` (of the main resource), sent once the update validated. */
  warningsOnUpdate?: (o: KubeObject, old: KubeObject) => string[];
  /**
   * The kind's status strategy, in place of the generic one (everything but the status from the old
   * object): Pods keep their spec and owner references but take new labels and annotations.
   */
  prepareForStatusUpdate?: (o: KubeObject, old: KubeObject) => void;
  /** A status write keeps the old labels, as the Deployment status strategy does (`newDeployment.Labels = oldDeployment.Labels`). */
  statusKeepsLabels?: boolean;
  /** What the kind's status strategy drops of a status write (fields of features that are off: `dropDisabledStatusFields`). */
  dropStatusFields?: (o: KubeObject, old: KubeObject, ctx: WriteContext) => void;
  /**
   * Validation of a `/status` write, in place of `validate` and `validateUpdate`: the whole list, given the
   * errors of `ValidateObjectMetaUpdate` (`meta`) to place where the kind's function places them.
   */
  validateStatusUpdate?: (o: KubeObject, old: KubeObject, meta: FieldError[]) => FieldError[];
  /** The status strategy's `WarningsOnUpdate`, sent once a `/status` write validated (an Ingress's non-standard IPs). */
  warningsOnStatusUpdate?: (o: KubeObject, old: KubeObject) => string[];
  /** The strategies of the kind's `objectSubresources` (a Pod's `ephemeralcontainers`), by subresource. */
  subresourceStrategies?: Readonly<Record<string, SubresourceStrategy>>;
  deleteReturnsObject?: boolean;
  /** Whether a DELETE without a propagation policy orphans dependents (batch/v1 Jobs, core/v1 ReplicationControllers). */
  orphanDependentsByDefault?: boolean;
  /** {@link ResourceType.orphanWarning} */
  orphanWarning?: string;
  /** Whether the apiserver keeps a watch cache for the kind ({@link ResourceType.watchCache}). @defaultValue true */
  watchCache?: boolean;
  markDeleting?: (o: KubeObject) => void;
  deferDeletion?: (o: KubeObject) => boolean;
  /** {@link ResourceType.gracefulDeletePeriod} */
  gracefulDeletePeriod?: (o: KubeObject, requested: number | undefined) => number;
  /** The verbs discovery lists. @defaultValue all eight */
  verbs?: string[];
  /** The strategy's `AllowUnconditionalUpdate`: whether a PUT without a resourceVersion is taken. @defaultValue true */
  allowUnconditionalUpdate?: boolean;
  /** {@link ResourceType.allowCreateOnUpdate} @defaultValue false */
  allowCreateOnUpdate?: boolean;
  /** {@link ResourceType.admit}: the kind's in-tree validating admission (the `Priority` plugin on PriorityClasses). */
  admit?: (o: KubeObject, old: KubeObject | undefined) => void;
  /**
   * The kind's in-tree validating admission of every write, subresources included (`ctx.subresource`),
   * with the request's user (the certificate approval and signing plugins).
   */
  admitAll?: (o: KubeObject, old: KubeObject | undefined, ctx: WriteContext) => void;
  /** {@link ResourceType.refuseDeletion}: the REST's `Delete` override (system PriorityClasses). */
  refuseDeletion?: (name: string) => void;
  /** {@link ResourceType.guardWrite}: the storage's check of a write (the RBAC kinds' escalation check). */
  guardWrite?: (o: KubeObject, old: KubeObject | undefined, ctx: WriteContext, target: WriteTarget) => void;
  /** {@link ResourceType.deprecationWarning}: the Warning of a deprecated kind (core/v1 Endpoints). */
  deprecationWarning?: string;
  /** {@link ResourceType.versionConversion}: the kind in its other served versions (a HorizontalPodAutoscaler's autoscaling/v1 and v2). */
  versionConversion?: VersionConversion;
  /**
   * The kind's other versions in the apiserver's scheme. A body of one of them is decoded as that version
   * (its decoding errors in that version's words), then refused by a create or update (`the API version in
   * the data (…) does not match the expected API version (…)`) and, as a patch's result, taken converted
   * ({@link versionConversion}). `served` are kubekit's types of the served ones; a body of one of the
   * `unserved` is refused by a create or update without being decoded.
   */
  otherVersions?: { served: () => readonly BuiltinResourceType[]; unserved?: readonly string[] };
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * `podStrategy.CheckGracefulDelete`: the period asked for, else the pod's `terminationGracePeriodSeconds`
 * (else 0); 0 for a pod no node runs (no `spec.nodeName`) or one that has finished; a negative one is 1.
 */
function podGracePeriod(pod: KubeObject, requested: number | undefined): number {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  let period = requested ?? (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 0);
  if (typeof spec.nodeName !== 'string' || spec.nodeName === '' || phase === 'Failed' || phase === 'Succeeded') period = 0;
  return period < 0 ? 1 : period;
}

/** A built-in kind served by the generic storage. */
export class BuiltinResourceType implements ResourceType {
  readonly names: ResourceNames;
  readonly groupResource;
  readonly bucket: string;
  readonly allowUnconditionalUpdate: boolean;
  readonly allowCreateOnUpdate: boolean;
  readonly strategicMergePatch = true;
  readonly deleteReturnsObject: boolean;
  readonly orphanDependentsByDefault: boolean;
  readonly orphanWarning?: string;
  readonly watchCache: boolean;
  readonly internalGroup?: string;
  readonly storageKind?: { group: string; version: string; kind: string };
  readonly storageVersion?: string;
  readonly deprecationWarning?: string;
  readonly versionConversion?: VersionConversion;
  /** `group/version` of the served version. */
  readonly apiVersion: string;
  private readonly fields: ResourceFields | undefined;
  private columns: TableColumnDefinition[] | undefined;

  constructor(private readonly spec: BuiltinSpec) {
    this.names = { ...spec.names, listKind: `${spec.names.kind}List`, verbs: spec.verbs ?? allVerbs, categories: spec.names.categories ?? [] };
    this.groupResource = { group: spec.names.group, resource: spec.names.resource };
    this.bucket = bucketOf(spec.storage?.groupResource ?? this.groupResource);
    if (spec.internalGroup !== undefined) this.internalGroup = spec.internalGroup;
    if (spec.storage !== undefined) this.storageKind = spec.storage.kind;
    if (spec.storageVersion !== undefined) this.storageVersion = spec.storageVersion;
    this.allowUnconditionalUpdate = spec.allowUnconditionalUpdate ?? true;
    this.allowCreateOnUpdate = spec.allowCreateOnUpdate ?? false;
    this.apiVersion = spec.names.group === '' ? spec.names.version : `${spec.names.group}/${spec.names.version}`;
    this.fields = builtinResourceFields(this.apiVersion, spec.names.kind);
    this.deleteReturnsObject = spec.deleteReturnsObject ?? false;
    this.orphanDependentsByDefault = spec.orphanDependentsByDefault ?? false;
    if (spec.orphanWarning !== undefined) this.orphanWarning = spec.orphanWarning;
    this.watchCache = spec.watchCache ?? true;
    if (spec.deprecationWarning !== undefined) this.deprecationWarning = spec.deprecationWarning;
    if (spec.markDeleting !== undefined) this.markDeleting = spec.markDeleting;
    if (spec.deferDeletion !== undefined) this.deferDeletion = spec.deferDeletion;
    if (spec.gracefulDeletePeriod !== undefined) this.gracefulDeletePeriod = spec.gracefulDeletePeriod;
    if (spec.refuseDeletion !== undefined) this.refuseDeletion = spec.refuseDeletion;
    if (spec.guardWrite !== undefined) this.guardWrite = spec.guardWrite;
    if (spec.compareTableRows !== undefined) this.compareTableRows = spec.compareTableRows;
    if (spec.versionConversion !== undefined) this.versionConversion = spec.versionConversion;
  }

  markDeleting?: (o: KubeObject) => void;
  deferDeletion?: (o: KubeObject) => boolean;
  gracefulDeletePeriod?: (o: KubeObject, requested: number | undefined) => number;
  refuseDeletion?: (name: string) => void;
  guardWrite?: (o: KubeObject, old: KubeObject | undefined, ctx: WriteContext, target: WriteTarget) => void;
  compareTableRows?: (a: KubeObject, b: KubeObject) => number;

  admit(object: KubeObject, old: KubeObject | undefined, ctx: WriteContext): void {
    // The in-tree plugins leave subresources alone.
    if (ctx.subresource === '') this.spec.admit?.(object, old);
    this.spec.admitAll?.(object, old, ctx);
  }

  fromStorage(stored: KubeObject): KubeObject {
    return this.spec.storage === undefined ? stored : this.spec.storage.fromStorage(stored);
  }

  toStorage(object: KubeObject): KubeObject {
    // What the apiserver stores is what encoding/json writes from the Go object (strategies and
    // defaults may have set empty values since the decode).
    encodeAsGo(object, this.names);
    const stored = this.spec.storage === undefined ? object : this.spec.storage.toStorage(object);
    // What it reads back from its protobuf storage (the answer to a create or update is that too).
    storedAsProtobuf(stored, this.storageKind ?? this.names);
    return stored;
  }

  fieldSet(object: KubeObject): FieldSet {
    if (this.fields !== undefined) return this.fields.fieldGetter(object);
    // DefaultMetaV1FieldSelectorConversion: name, and namespace for namespaced kinds.
    return this.names.namespaced
      ? { 'metadata.name': object.metadata.name ?? '', 'metadata.namespace': object.metadata.namespace ?? '' }
      : { 'metadata.name': object.metadata.name ?? '' };
  }

  convertFieldLabel(label: string, value: string): [string, string] {
    return convertBuiltinFieldLabel(this.apiVersion, this.names.kind, label, value);
  }

  tableColumns(): TableColumnDefinition[] {
    if (this.columns === undefined && this.spec.printer !== undefined) {
      this.columns = (publishedTableColumns(this.names.group, this.names.version, this.names.resource) ?? [nameColumn]).map((c) => ({ ...c }));
    }
    if (this.columns === undefined) {
      const def = (c: BuiltinColumn): TableColumnDefinition => ({ format: '', description: '', ...c.def });
      const age = this.spec.age === false ? [] : [builtinAgeColumn];
      const own = [nameColumn, ...(this.spec.columns ?? []).map(def), ...age, ...(this.spec.wide ?? []).map(def)];
      // The apiserver's own definitions (types, descriptions) where the cells computed here are its columns.
      const published = publishedTableColumns(this.names.group, this.names.version, this.names.resource);
      const same = published !== undefined && published.length === own.length && published.every((c, i) => c.name === own[i].name);
      this.columns = same ? published.map((c) => ({ ...c })) : own;
    }
    return this.columns.map((c) => ({ ...c }));
  }

  tableCells(object: KubeObject, now: number): unknown[] {
    if (this.spec.printer !== undefined) return this.spec.printer(object, now);
    const age = this.spec.age === false ? [] : [ageCell(object, now)];
    return [object.metadata.name ?? '', ...(this.spec.columns ?? []).map((c) => c.cell(object, now)), ...age, ...(this.spec.wide ?? []).map((c) => c.cell(object, now))];
  }

  tableRowMetadata(object: KubeObject): KubeObject['metadata'] {
    const drop = this.spec.versionedAnnotations ?? [];
    const annotations = object.metadata.annotations;
    if (annotations === undefined || !drop.some((k) => Object.hasOwn(annotations, k))) return object.metadata;
    const rest = Object.fromEntries(Object.entries(annotations).filter(([k]) => !drop.includes(k)));
    const { annotations: _dropped, ...meta } = object.metadata;
    return Object.keys(rest).length === 0 ? meta : { ...meta, annotations: rest };
  }

  decode(body: unknown, ctx: WriteContext): KubeObject {
    try {
      return this.decodeTyped(body, ctx);
    } catch (err) {
      // Decoding into the Go type: a create's or update's error in the codec's words ("ConfigMap in
      // version "v1" cannot be handled as a ConfigMap: json: …"), a patched object's a 422 on `patch`.
      if (isDecodeError(err) && ctx.strictError !== undefined) throw ctx.strictError(err.message);
      throw err;
    }
  }

  private decodeTyped(body: unknown, ctx: WriteContext): KubeObject {
    const given = isObject(body) && typeof body.apiVersion === 'string' ? body.apiVersion : '';
    const sameKind = isObject(body) && (body.kind === undefined || body.kind === null || body.kind === '' || body.kind === this.names.kind);
    if (given !== '' && given !== this.apiVersion && sameKind && this.spec.otherVersions !== undefined) {
      const other = this.spec.otherVersions.served().find((t) => t.apiVersion === given);
      const mismatch = (): KubeError => KubeError.badRequest(`the API version in the data (${given}) does not match the expected API version (${this.apiVersion})`);
      if (other !== undefined) {
        // The codec decodes the body in its own version; the handler then checks that version (a create or
        // update), while a patch's result is converted (registry/rest's patcher does not look).
        const { kind, version } = other.names;
        const codec = ctx.patched === true || ctx.strictError === undefined ? ctx : { ...ctx, strictError: (m: string) => KubeError.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${kind}: ${m}`) };
        const decoded = other.decode(body, codec);
        if (ctx.patched !== true || this.versionConversion === undefined) throw mismatch();
        return this.versionConversion.convert(decoded, given, this.apiVersion);
      }
      if (ctx.patched !== true && this.spec.otherVersions.unserved?.includes(given) === true) throw mismatch();
    }
    if (given !== '' && given !== this.apiVersion) {
      // Another version: the codec decodes the body as the scheme's kind of that version (a core kind under
      // apps/v1 or a custom kind is not registered; a Pod sent to the ConfigMaps does not convert), before
      // any field is looked at. One that converts (the kind in a version not served, apps/v1beta1) is then
      // the handler's API version check (kube-apiserver 1.34.4, test/hostile/schemeKinds.test.ts).
      const kind = isObject(body) && typeof body.kind === 'string' && body.kind !== '' ? body.kind : this.names.kind;
      this.refuseOtherKind(body as Record<string, unknown>, given, kind, ctx);
      throw KubeError.badRequest(`the API version in the data (${given}) does not match the expected API version (${this.apiVersion})`);
    }
    // A metadata timestamp metav1.Time cannot decode ends the decode, before any recorded type error (the
    // converter of a strategic merge patch's result meets it in its turn).
    if (isObject(body) && isObject(body.metadata) && ctx.converted !== true) checkMetadataTimestamps(body.metadata);
    const otherKind = isObject(body) && typeof body.kind === 'string' && body.kind !== '' && body.kind !== this.names.kind ? body.kind : undefined;
    if (otherKind !== undefined) {
      this.refuseOtherKind(body as Record<string, unknown>, this.apiVersion, otherKind, ctx);
      // A kind the scheme converts into this one (none of the served kinds has such a pair): decoded as this kind.
    }
    // Decoding into the Go type: the first value of the wrong type, a quantity or base64 text that does
    // not parse, in encoding/json's words (kube-apiserver 1.34.4, test/builtinGoDecode.test.ts).
    // A strategic merge patch's result is converted, not decoded, with the converter's words.
    const goError = !isObject(body) ? undefined : ctx.converted === true ? convertErrorFromUnstructured(body, this.names) : decodeErrorAsGo(body, this.names, { bodyText: ctx.bodyText });
    if (goError !== undefined) throw ctx.strictError !== undefined ? ctx.strictError(goError) : KubeError.badRequest(goError);
    const obj = decodeObjectShape(cloneJSON(body));
    const schema = builtinKindSchema(this.names);
    // Decoding into the Go types drops unknown fields; fieldValidation says whether that is reported.
    // A JSON or merge patch's result is read in its own order (the patch left json-patch's: what it
    // walked or merged sorted); a strategic merge patch's is a Go map the converter reads sorted.
    let unknown = schema === undefined ? [] : pruneUnknownFields(obj, schema, { sorted: ctx.converted === true });
    // In a JSON patch's result, the members of a value the patch placed keep the patch's order.
    if (unknown.length > 1 && schema !== undefined && ctx.jsonPatchedTexts !== undefined) {
      const { doc, texts } = ctx.jsonPatchedTexts();
      unknown = pruneUnknownFields(doc, schema, { sorted: true, placed: texts.get });
    }
    const { kind, version } = this.names;
    // Decoded from JSON or YAML by sigs.k8s.io/json (at most 100 problems); a strategic merge patch's map by the converter.
    reportFieldProblems(ctx, unknown, `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: `, ctx.converted === true ? Infinity : strictDecodingErrorLimit);
    // Decoded into the Go type: empty omitempty members are as good as absent from here on (the field
    // manager, the strategy and the no-op check see the object as the apiserver holds it).
    // An empty list of managed fields is written as none, but the decoded object holds it, and to the
    // field manager it is the request to clear them (`isResetManagedFields`): it stays for the field manager.
    const clearsManagedFields = Array.isArray(obj.metadata.managedFields) && obj.metadata.managedFields.length === 0;
    encodeAsGo(obj, this.names, ctx.viaMap === true);
    if (clearsManagedFields) obj.metadata.managedFields = [];
    if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = this.apiVersion;
    else if (obj.apiVersion !== this.apiVersion) {
      throw KubeError.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${this.apiVersion})`);
    }
    // Another kind was refused above.
    obj.kind = this.names.kind;
    this.spec.normalize?.(obj, ctx);
    this.spec.defaults?.(obj);
    return obj;
  }

  /**
   * A body of another kind or version than this one: the scheme's codec decodes it as the kind it names
   * (schemeKinds.ts): one the scheme does not register, or whose Go type does not convert to this kind's
   * internal type (a Secret sent to the ConfigMaps), is the codec's 400, naming both kinds; a patch's
   * result gets the 422 on `patch`. Returns when the body converts.
   */
  private refuseOtherKind(body: Record<string, unknown>, apiVersion: string, kind: string, ctx: WriteContext): void {
    const version = versionOf(apiVersion);
    const gvk = { group: apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '', version, kind };
    const internal = `${internalPackage(this.internalGroup ?? this.names.group)}.${this.names.kind}`;
    const why = otherKindReason(apiVersion, kind, internal, () => decodeErrorAsGo(body, gvk, { bodyText: ctx.bodyText }));
    if (why === undefined) return;
    if (ctx.patched === true && ctx.strictError !== undefined) throw ctx.strictError(why);
    throw KubeError.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${this.names.kind}: ${why}`);
  }

  prepareForCreate(object: KubeObject, ctx: WriteContext): void {
    if (this.spec.generation === true) object.metadata.generation = 1;
    this.spec.prepareForCreate?.(object, ctx.warnings, ctx);
  }

  prepareForUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): void {
    // The kind's rules (and a pod's admission plugins) run first: the generation counts the spec they leave.
    if (ctx.subresource === '') this.spec.prepareForUpdate?.(object, old);
    else this.subresourceStrategy(ctx)?.prepareForUpdate(object, old, ctx);
    const field = this.spec.generationField ?? 'spec';
    if (this.spec.generation === true && ctx.subresource !== 'status' && !semanticEqual(object[field], old[field])) {
      object.metadata.generation = (typeof old.metadata.generation === 'number' ? old.metadata.generation : 0) + 1;
    }
    if (!this.names.status) return;
    if (ctx.subresource === 'status' && this.spec.prepareForStatusUpdate !== undefined) {
      this.spec.prepareForStatusUpdate(object, old);
    } else if (ctx.subresource === 'status') {
      // The status strategies restore the spec (a Deployment's also its labels); the rest of the write
      // stands, metadata included (kube-apiserver 1.34.4: `newX.Spec = oldX.Spec`).
      const status = object.status;
      const meta = object.metadata;
      for (const k of Object.keys(object)) delete object[k];
      assignOwn(object, cloneJSON(old));
      object.metadata = meta;
      if (this.spec.statusKeepsLabels === true) {
        if (old.metadata.labels === undefined) delete object.metadata.labels;
        else object.metadata.labels = cloneJSON(old.metadata.labels);
      }
      if (status === undefined) delete object.status;
      else object.status = status;
      this.spec.dropStatusFields?.(object, old, ctx);
    } else if (this.subresourceStrategy(ctx)?.writesStatus === true) {
      // The subresource's strategy has placed the status.
    } else if (old.status === undefined) {
      delete object.status;
    } else {
      object.status = old.status;
    }
  }

  private subresourceStrategy(ctx: WriteContext): SubresourceStrategy | undefined {
    const strategies = this.spec.subresourceStrategies;
    return ctx.subresource !== '' && strategies !== undefined && Object.hasOwn(strategies, ctx.subresource) ? strategies[ctx.subresource] : undefined;
  }

  validateCreate(object: KubeObject, ctx: WriteContext): FieldError[] {
    const kind = [...(this.spec.validate?.(object) ?? []), ...(this.spec.validateCreate?.(object) ?? [])];
    const errs = this.spec.strategyValidatesMeta === false
      ? (kind.length > 0 ? kind : validateObjectMeta(object.metadata, this.names.namespaced, this.names.nameValidation, false))
      : [...(this.spec.validateCreateFirst?.(object) ?? []), ...validateObjectMeta(object.metadata, this.names.namespaced, this.names.nameValidation), ...kind];
    if (errs.length === 0) addWarnings(ctx, this.spec.warningsOnCreate?.(object));
    return errs;
  }

  validateUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): FieldError[] {
    const status = ctx.subresource === 'status';
    // A status write validates the metadata update only (ValidatePodStatusUpdate, ValidateNamespaceStatusUpdate).
    const meta = validateObjectMetaUpdate(object.metadata, old.metadata, this.spec.updateValidatesMeta === true && !status, this.spec.strategyValidatesMeta !== false);
    if (status && this.spec.validateStatusUpdate !== undefined) {
      const errs = this.spec.validateStatusUpdate(object, old, meta);
      if (errs.length === 0) addWarnings(ctx, this.spec.warningsOnStatusUpdate?.(object, old));
      return errs;
    }
    const strategy = this.subresourceStrategy(ctx);
    if (strategy !== undefined) return strategy.validateUpdate(object, old, meta);
    const whole = this.spec.validateWholeUpdate;
    const errs = whole !== undefined && !status
      ? whole(object, old, validateObjectMetaUpdate(object.metadata, old.metadata, false, false))
      : [...meta, ...(this.spec.validate?.(object, old) ?? []), ...(this.spec.validateUpdate?.(object, old) ?? [])];
    if (errs.length === 0 && ctx.subresource === '') addWarnings(ctx, this.spec.warningsOnUpdate?.(object, old));
    return errs;
  }
}

/** validateFinalizerName: a qualified name, and a standard one when it has no `/`. */
function finalizerNameErrors(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalid(path, name, msg));
  if (!name.includes('/') && !standardFinalizers.includes(name)) errs.push(invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  return errs;
}

/** Adds a strategy's warnings to the answer (the apiserver's recorder drops repeats). */
function addWarnings(ctx: WriteContext, warnings: readonly string[] | undefined): void {
  for (const w of warnings ?? []) if (!ctx.warnings.includes(w)) ctx.warnings.push(w);
}

/** `ValidateConfigMap`/`ValidateSecret`'s keys: each `IsConfigMapKey` message of each key. */
function validateConfigKeys(obj: KubeObject, fields: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of fields) {
    const data = obj[f];
    if (!isObject(data)) continue;
    for (const k of Object.keys(data)) {
      for (const msg of isConfigMapKey(k)) errs.push(invalid(FieldPath.root(f).key(k), k, msg));
      // ValidateConfigMap: a key may be in data or in binaryData, not both.
      if (f === 'data' && isObject(obj.binaryData) && Object.hasOwn(obj.binaryData, k)) errs.push(invalid(FieldPath.root(f).key(k), k, 'duplicate of key present in binaryData'));
    }
  }
  return errs;
}

/** `core.MaxSecretSize`: the most bytes of data a ConfigMap or Secret holds. */
const maxDataBytes = 1024 * 1024;

/** The bytes a data map holds: base64 values decoded, strings as UTF-8. */
function dataBytes(data: unknown, base64: boolean): number {
  if (!isObject(data)) return 0;
  return Object.values(data).reduce<number>((n, v) => n + (typeof v !== 'string' ? 0 : base64 ? Buffer.from(v, 'base64').length : Buffer.byteLength(v)), 0);
}

/** `ValidateConfigMap` past its metadata: keys, no key twice, at most 1 MiB. */
function validateConfigMap(o: KubeObject): FieldError[] {
  const errs = validateConfigKeys(o, ['data', 'binaryData']);
  // field.NewPath(""): Path.String writes an element without a name as its index in brackets, `[]`.
  if (dataBytes(o.data, false) + dataBytes(o.binaryData, true) > maxDataBytes) errs.push(tooLong(FieldPath.empty(), '', maxDataBytes));
  return errs;
}

/** `ValidateSecret` past its metadata: keys, at most 1 MiB, and what its type requires. */
function validateSecret(o: KubeObject): FieldError[] {
  const errs = validateConfigKeys(o, ['data']);
  const data = isObject(o.data) ? o.data : {};
  if (dataBytes(data, true) > maxDataBytes) errs.push(tooLong('data', '', maxDataBytes));
  const key = (k: string): FieldPath => FieldPath.root('data').key(k);
  const has = (k: string): boolean => Object.hasOwn(data, k);
  switch (o.type) {
    case 'kubernetes.io/service-account-token': {
      const name = o.metadata.annotations?.['kubernetes.io/service-account.name'];
      if (name === undefined || name === '') errs.push(required(FieldPath.root('metadata', 'annotations').key('kubernetes.io/service-account.name'), ''));
      break;
    }
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const k = o.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(k)) errs.push(required(key(k), ''));
      else {
        const why = jsonObjectError(Buffer.from(String(data[k]), 'base64'));
        if (why !== undefined) errs.push(invalid(key(k), '<secret contents redacted>', why));
      }
      break;
    }
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) errs.push(required(key('username'), ''), required(key('password'), ''));
      break;
    case 'kubernetes.io/ssh-auth':
      if (typeof data['ssh-privatekey'] !== 'string' || data['ssh-privatekey'] === '') errs.push(required(key('ssh-privatekey'), ''));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required(key('tls.crt'), ''));
      if (!has('tls.key')) errs.push(required(key('tls.key'), ''));
      break;
    default:
  }
  return errs;
}

/** Why `json.Unmarshal` into a `map[string]interface{}` refuses `bytes`, in encoding/json's words. */
function jsonObjectError(bytes: Buffer): string | undefined {
  const syntax = goJSONSyntaxError(bytes);
  if (syntax !== undefined) return syntax;
  const value: unknown = JSON.parse(bytes.toString('utf8'));
  return value === null || (typeof value === 'object' && !Array.isArray(value)) ? undefined : goUnmarshalTypeError(value, 'map[string]interface {}');
}

/**
 * `ValidateConfigMapUpdate`/`ValidateSecretUpdate`: once `immutable` is true, it stays true and the data
 * may not change.
 */
function immutableData(o: KubeObject, old: KubeObject, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (o.immutable !== true) errs.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) if (!semanticEqual(o[f] ?? null, old[f] ?? null)) errs.push(forbidden(f, 'field is immutable when `immutable` is set'));
  return errs;
}

function countData(o: KubeObject): number {
  return (isObject(o.data) ? Object.keys(o.data).length : 0) + (isObject(o.binaryData) ? Object.keys(o.binaryData).length : 0);
}

function containerStatuses(o: KubeObject): Record<string, unknown>[] {
  const s = isObject(o.status) ? o.status.containerStatuses : undefined;
  return Array.isArray(s) ? s.filter(isObject) : [];
}

function containers(o: KubeObject): unknown[] {
  const s = isObject(o.spec) ? o.spec.containers : undefined;
  return Array.isArray(s) ? s : [];
}

/** `ValidateLeaseSpec`'s number checks: a positive duration, no negative transition count. */
function validateLeaseSpec(o: KubeObject): FieldError[] {
  const spec = isObject(o.spec) ? o.spec : {};
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) errs.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) errs.push(invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  return errs;
}

/** printPod's Readiness Gates cell: `<none>`, or how many of the pod's readiness gates have a True condition. */
function readinessGates(o: KubeObject): string {
  const gates = isObject(o.spec) && Array.isArray(o.spec.readinessGates) ? o.spec.readinessGates.filter(isObject) : [];
  if (gates.length === 0) return '<none>';
  const conditions = isObject(o.status) && Array.isArray(o.status.conditions) ? o.status.conditions.filter(isObject) : [];
  const ready = gates.filter((g) => conditions.some((c) => c.type === g.conditionType && c.status === 'True')).length;
  return `${ready}/${gates.length}`;
}

/** The built-in kinds, each in its one served version. */
export function builtinResourceTypes(): BuiltinResourceType[] {
  return [
    new BuiltinResourceType({
      names: { group: '', version: 'v1', resource: 'namespaces', singular: 'namespace', kind: 'Namespace', namespaced: false, shortNames: ['ns'], status: true, nameValidation: 'label', kindSubresources: [{ subresource: 'finalize', group: '', version: 'v1', kind: 'Namespace', verbs: ['update'] }] },
      columns: [{ def: { name: 'Status', type: 'string', priority: 0, description: 'The status of the namespace' }, cell: (o) => (isObject(o.status) ? o.status.phase : undefined) ?? '' }],
      // The namespace registry has no deletecollection (kube-apiserver 1.34 discovery).
      verbs: allVerbs.filter((v) => v !== 'deletecollection'),
      deleteReturnsObject: true,
      updateValidatesMeta: true,
      // SetDefaults_Namespace: the label is a default, there before the field manager looks (it is the
      // writer's field), for a namespace that has a name.
      defaults: (o) => {
        if ((o.metadata.name ?? '') !== '') o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': o.metadata.name! };
      },
      // namespaceStrategy.PrepareForUpdate: spec.finalizers change only through /finalize; its Canonicalize
      // puts the kubernetes.io/metadata.name label back on every write.
      prepareForUpdate: (o, old) => {
        const spec: Record<string, unknown> = isObject(o.spec) ? { ...o.spec } : {};
        const finalizers = isObject(old.spec) ? old.spec.finalizers : undefined;
        if (finalizers === undefined) delete spec.finalizers;
        else spec.finalizers = finalizers;
        o.spec = spec;
        o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': o.metadata.name ?? '' };
      },
      // namespaceStrategy.PrepareForCreate: the kubernetes finalizer is added to those the request gives.
      prepareForCreate: (o) => {
        const given = isObject(o.spec) && Array.isArray(o.spec.finalizers) ? o.spec.finalizers : [];
        o.spec = { ...(isObject(o.spec) ? o.spec : {}), finalizers: given.includes('kubernetes') ? given : [...given, 'kubernetes'] };
        o.status = { phase: 'Active' };
        o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': o.metadata.name ?? '' };
      },
      // ValidateNamespace: each of spec.finalizers a qualified name, and a standard one when it has no `/`
      // (both reported at spec.finalizers, without an index).
      validate: (o) => {
        const finalizers = isObject(o.spec) && Array.isArray(o.spec.finalizers) ? o.spec.finalizers : [];
        return finalizers.flatMap((f) => finalizerNameErrors(typeof f === 'string' ? f : '', 'spec.finalizers'));
      },
      // The namespace REST's Delete: a deletionTimestamp, no grace period, the phase Terminating.
      markDeleting: (o) => {
        delete o.metadata.deletionGracePeriodSeconds;
        o.status = { ...(isObject(o.status) ? o.status : {}), phase: 'Terminating' };
      },
      // FinalizeStrategy: namespaceStrategy with spec.finalizers taken from the request (the status is kept
      // as on any write but /status), its Canonicalize, and ValidateNamespaceFinalizeUpdate (each finalizer
      // at its index, after the metadata update).
      subresourceStrategies: {
        finalize: {
          prepareForUpdate: (o) => {
            o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': o.metadata.name ?? '' };
          },
          validateUpdate: (o, _old, meta) => {
            const finalizers = isObject(o.spec) && Array.isArray(o.spec.finalizers) ? o.spec.finalizers : [];
            return [...meta, ...finalizers.flatMap((f, i) => finalizerNameErrors(typeof f === 'string' ? f : '', `spec.finalizers[${i}]`))];
          },
        },
      },
      deferDeletion: (o) => {
        const fin = isObject(o.spec) ? o.spec.finalizers : undefined;
        return Array.isArray(fin) && fin.length > 0;
      },
    }),
    new BuiltinResourceType({
      names: { group: '', version: 'v1', resource: 'configmaps', singular: 'configmap', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], status: false, nameValidation: 'subdomain' },
      columns: [{ def: { name: 'Data', type: 'string', priority: 0 }, cell: (o) => countData(o) }],
      updateValidatesMeta: true,
      validateCreate: validateConfigMap,
      validateUpdate: (o, old) => [...immutableData(o, old, ['data', 'binaryData']), ...validateConfigMap(o)],
    }),
    new BuiltinResourceType({
      names: { group: '', version: 'v1', resource: 'secrets', singular: 'secret', kind: 'Secret', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
      columns: [
        { def: { name: 'Type', type: 'string', priority: 0 }, cell: (o) => (typeof o.type === 'string' ? o.type : 'Opaque') },
        { def: { name: 'Data', type: 'string', priority: 0 }, cell: (o) => countData(o) },
      ],
      // SetDefaults_Secret: a decoded Secret of no type is Opaque, on create and update alike (before the
      // managed fields are computed, so the writer owns `type`).
      defaults: (o) => { if (o.type === undefined || o.type === '') o.type = 'Opaque'; },
      updateValidatesMeta: true,
      normalize: mergeStringData,
      validateCreate: validateSecret,
      validateUpdate: (o, old) => [...(o.type === old.type ? [] : [invalid('type', o.type ?? '', 'field is immutable')]), ...immutableData(o, old, ['data']), ...validateSecret(o)],
    }),
    // The legacy `bindings` collection: a POST binds the pod the Binding names (LegacyBindingREST); nothing is stored.
    new BuiltinResourceType({
      names: { group: '', version: 'v1', resource: 'bindings', singular: 'binding', kind: 'Binding', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
      verbs: ['create'],
    }),
    new BuiltinResourceType({
      names: { group: '', version: 'v1', resource: 'pods', singular: 'pod', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'], status: true, nameValidation: 'subdomain', objectSubresources: ['ephemeralcontainers', 'resize'],
        kindSubresources: [
          { subresource: 'binding', group: '', version: 'v1', kind: 'Binding', verbs: ['create'] },
          { subresource: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
          ...podConnectSubresources,
          proxySubresource('PodProxyOptions'),
        ] },
      columns: [
        { def: { name: 'Ready', type: 'string', priority: 0 }, cell: (o) => `${containerStatuses(o).filter((c) => c.ready === true).length}/${containers(o).length}` },
        { def: { name: 'Status', type: 'string', priority: 0 }, cell: (o) => (isObject(o.status) ? o.status.phase : undefined) ?? 'Pending' },
        { def: { name: 'Restarts', type: 'string', priority: 0 }, cell: (o) => String(containerStatuses(o).reduce((n, c) => n + (typeof c.restartCount === 'number' ? c.restartCount : 0), 0)) },
      ],
      wide: [
        { def: { name: 'IP', type: 'string', priority: 1 }, cell: (o) => (isObject(o.status) ? o.status.podIP : undefined) ?? '<none>' },
        { def: { name: 'Node', type: 'string', priority: 1 }, cell: (o) => (isObject(o.spec) ? o.spec.nodeName : undefined) ?? '<none>' },
        { def: { name: 'Nominated Node', type: 'string', priority: 1 }, cell: (o) => (isObject(o.status) ? o.status.nominatedNodeName : undefined) ?? '<none>' },
        { def: { name: 'Readiness Gates', type: 'string', priority: 1 }, cell: readinessGates },
      ],
      warningsOnCreate: (o) => [...podNameWarning(o, "the Pod's hostname"), ...podSpecWarnings(undefined, o.spec, o.metadata)],
      deleteReturnsObject: true,
      // Pods have a generation since 1.34 (PodObservedGenerationTracking): 1 on create, +1 per spec change.
      generation: true,
      defaults: defaultPod,
      // The status a new pod gets (the admission plugins, podAdmission.ts and runtimeClassAdmission.ts, ran before).
      prepareForCreate: (o, warnings) => {
        o.status = initialPodStatus(o);
        applyAppArmorVersionSkew(o, warnings);
      },
      // ValidatePodUpdate runs ValidateObjectMeta on the new pod as well.
      updateValidatesMeta: true,
      validate: validatePod,
      validateCreate: validatePodCreate,
      validateUpdate: validatePodUpdate,
      prepareForStatusUpdate: preparePodStatusUpdate,
      validateStatusUpdate: (o, old, meta) => [...meta, ...validatePodStatusUpdate(o, old)],
      warningsOnStatusUpdate: podStatusWarnings,
      gracefulDeletePeriod: podGracePeriod,
      subresourceStrategies: {
        ephemeralcontainers: { prepareForUpdate: prepareEphemeralContainersUpdate, validateUpdate: validateEphemeralContainersUpdate },
        resize: { prepareForUpdate: prepareResizeUpdate, validateUpdate: validateResizeUpdate },
      },
    }),
    new BuiltinResourceType({
      names: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', singular: 'lease', kind: 'Lease', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
      allowCreateOnUpdate: true,
      allowUnconditionalUpdate: false,
      columns: [{ def: { name: 'Holder', type: 'string', priority: 0 }, cell: (o) => (isObject(o.spec) ? o.spec.holderIdentity : undefined) ?? '' }],
      prepareForCreate: (o) => dropLeaseStrategy(o, undefined),
      prepareForUpdate: dropLeaseStrategy,
      validate: validateLeaseSpec,
    }),
  ];
}

/**
 * The Lease strategy's drop of `spec.strategy` and `spec.preferredHolder` while the
 * CoordinatedLeaderElection feature is off (its 1.34 default): on create, and on update unless the
 * current object already has them (registry/coordination/lease/strategy.go).
 */
function dropLeaseStrategy(o: KubeObject, old: KubeObject | undefined): void {
  if (!isObject(o.spec)) return;
  const before = old !== undefined && isObject(old.spec) ? old.spec : {};
  for (const f of ['strategy', 'preferredHolder']) {
    if (before[f] === undefined || before[f] === null) delete o.spec[f];
  }
}

/** Moves a Secret's `stringData` into `data` (base64), as the apiserver does on every write. */
export function mergeStringData(o: KubeObject): void {
  if (!isObject(o.stringData)) return;
  const data = isObject(o.data) ? { ...o.data } : {};
  for (const [k, v] of Object.entries(o.stringData)) setOwn(data, k, Buffer.from(String(v), 'utf8').toString('base64'));
  o.data = data;
  delete o.stringData;
}



