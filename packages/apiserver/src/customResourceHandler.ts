/**
 * Custom resources: everything the API server derives from one CustomResourceDefinition — per served
 * version a {@link ResourceType} with the apiextensions-apiserver's request pipeline (decode, prune,
 * default in the request version, schema and CEL validation, conversion to the storage version), read
 * defaulting with the stored version's schema (KEP-575), field selection on `selectableFields`
 * (KEP-4358), printer columns, and the `status`/`scale` subresources.
 *
 * A {@link CustomResourceRuntime} is built for each CRD generation and thrown away when the CRD
 * changes, as the apiserver rebuilds its storage for the new CRD.
 */
import type { ReplicasPathMappings } from './managedFields/scaleHandler.js';
import { FieldError, KubeError, goJSON, goQuote, parseRFC3339, stringifyJSON, type KubeObject } from '@kubekit/core';
import { isDecodeError, standardFinalizers } from './objectMeta.js';
import { createCustomResourceFields, type ResourceFields } from '@kubekit/attrs';
import type { CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionVersion, JSONSchemaProps } from '@kubekit/crd';
import { converterFor, type Converter } from './conversion.js';
import type { WebhookServiceResolver } from './internal/webhookClient.js';
import { deepEqual } from './internal/deepEqual.js';
import { reportFieldProblems } from './internal/fieldValidation.js';
import { typeFromStructuralSchema, type TypeNode } from './managedFields/schema.js';
import { compileSchema, validateCustomResource, type CompiledSchema } from './internal/semantics.js';
import type { FieldSet, ResourceNames, ResourceType, TableColumnDefinition, WriteContext } from './resourceType.js';
import { FieldIndex } from './storage/fieldIndex.js';
import { bucketOf, type ObjectStore } from './storage/objectStore.js';
import { ageCell, ageColumn, nameColumn, printerColumnCell } from './table.js';
import { assignOwn, cloneJSON, isObject } from './internal/own.js';

/** Options that change how custom resources behave. */
export interface CustomResourceOptions {
  /** The `CustomResourceFieldSelectors` feature gate. */
  customResourceFieldSelectors: boolean;
  /** Where conversion webhooks given as a `service` are dialled. @defaultValue the service's port on 127.0.0.1 */
  resolveService?: WebhookServiceResolver;
}

interface VersionRuntime {
  readonly def: CustomResourceDefinitionVersion;
  readonly schema: JSONSchemaProps;
  readonly compiled: CompiledSchema;
  readonly fields: ResourceFields;
  readonly columns: readonly CustomResourceColumnDefinition[];
}

function versionOf(obj: KubeObject): string {
  const av = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = av.indexOf('/');
  return slash < 0 ? av : av.slice(slash + 1);
}

/** Everything derived from one generation of a CRD. */
export class CustomResourceRuntime {
  readonly bucket: string;
  readonly namespaced: boolean;
  readonly storageVersion: string;
  readonly converter: Converter;
  /** One type per served version. */
  readonly types: CustomResourceType[];
  private readonly versions = new Map<string, VersionRuntime>();
  private readonly decoded = new WeakMap<KubeObject, KubeObject>();
  private readonly indexes = new Map<string, FieldIndex>();
  private unsubscribe: (() => void) | undefined;

  constructor(readonly crd: CustomResourceDefinition, private readonly store: ObjectStore, readonly options: CustomResourceOptions) {
    const { spec } = crd;
    this.namespaced = spec.scope === 'Namespaced';
    this.bucket = bucketOf({ group: spec.group, resource: spec.names.plural });
    this.storageVersion = spec.versions.find((v) => v.storage)?.name ?? spec.versions[0].name;
    this.converter = converterFor(crd, { resolveService: options.resolveService });
    for (const v of spec.versions) {
      const schema: JSONSchemaProps = v.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      this.versions.set(v.name, {
        def: v,
        schema,
        compiled: compileSchema(schema),
        fields: createCustomResourceFields({
          namespaced: this.namespaced,
          selectableFields: v.selectableFields ?? [],
          customResourceFieldSelectors: options.customResourceFieldSelectors,
        }),
        columns: v.additionalPrinterColumns ?? [],
      });
    }
    this.types = spec.versions.filter((v) => v.served).map((v) => new CustomResourceType(this, v.name));
  }

  /** Starts keeping indexes up to date. */
  attach(): void {
    this.unsubscribe ??= this.store.onCommit((e) => {
      if (e.bucket !== this.bucket) return;
      for (const idx of this.indexes.values()) idx.apply(e);
    });
  }

  /** Stops keeping indexes. */
  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.indexes.clear();
  }

  /** The runtime of a version. */
  version(name: string): VersionRuntime {
    const v = this.versions.get(name);
    if (v === undefined) throw new KubeError('InternalError', `version ${name} of ${this.crd.metadata.name ?? ''} is not known`);
    return v;
  }

  /**
   * A stored object as read from storage: pruned and defaulted with the schema of the version it is
   * stored in (KEP-575 "during read from storage"). Cached per stored object.
   */
  decodeStored(stored: KubeObject): KubeObject {
    let d = this.decoded.get(stored);
    if (d === undefined) {
      const v = this.versions.get(versionOf(stored)) ?? this.version(this.storageVersion);
      d = cloneJSON(stored);
      v.compiled.defaultAndPrune(d, { isResourceRoot: true, returnPruned: false, dropInvalidMetadata: true });
      this.decoded.set(stored, d);
    }
    return d;
  }

  /**
   * The keys whose selectable field `label` equals `value`, from an index over the decoded stored
   * objects. Only with the `None` strategy, where a field's path is the same in every version.
   */
  lookupIndex(label: string, value: string): ReadonlySet<string> | undefined {
    if (this.converter.async || label === 'metadata.name' || label === 'metadata.namespace') return undefined;
    let idx = this.indexes.get(label);
    if (idx === undefined) {
      const extractor = this.version(this.storageVersion).fields.extractor(label)
        ?? [...this.versions.values()].map((v) => v.fields.extractor(label)).find((e) => e !== undefined);
      if (extractor === undefined) return undefined;
      idx = new FieldIndex((o) => extractor(this.decodeStored(o)));
      idx.build(this.store.values(this.bucket));
      this.indexes.set(label, idx);
      this.attach();
    }
    return idx.lookup(value);
  }
}

/** One served version of a custom resource. */
export class CustomResourceType implements ResourceType {
  readonly names: ResourceNames;
  readonly groupResource;
  readonly bucket: string;
  readonly allowUnconditionalUpdate = false;
  readonly strategicMergePatch = false;
  readonly customResource = true;
  /** A deleted custom resource is answered with a `Status` (the custom resource store does not set `ReturnDeletedObject`). */
  readonly deleteReturnsObject = false;
  readonly deprecationWarning: string | undefined;
  private readonly apiVersion: string;
  private readonly views = new WeakMap<KubeObject, KubeObject | Promise<KubeObject>>();
  private readonly v: VersionRuntime;
  private fieldsType: TypeNode | undefined;

  constructor(readonly runtime: CustomResourceRuntime, readonly version: string) {
    const { crd } = runtime;
    const { names, group } = crd.spec;
    this.v = runtime.version(version);
    const subs = this.v.def.subresources;
    this.names = {
      group, version, resource: names.plural, singular: names.singular ?? names.kind.toLowerCase(), kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`, namespaced: runtime.namespaced, shortNames: names.shortNames ?? [],
      categories: names.categories ?? [], verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      nameValidation: 'subdomain', status: subs?.status !== undefined,
      ...(subs?.scale !== undefined ? { scale: { ...subs.scale, replicasPathMappings: crdReplicasPaths(crd) } } : {}),
    };
    this.groupResource = { group, resource: names.plural };
    this.bucket = runtime.bucket;
    this.apiVersion = `${group}/${version}`;
    this.deprecationWarning = this.v.def.deprecated === true
      ? this.v.def.deprecationWarning ?? `${this.apiVersion} ${names.kind} is deprecated`
      : undefined;
  }

  fromStorage(stored: KubeObject, fresh = false): KubeObject | Promise<KubeObject> {
    // The apiserver's watch cache of each version holds its objects converted; a read from etcd converts again
    // (a conversion webhook is called on each GET without a resourceVersion, and its failures are seen).
    if (fresh && this.runtime.converter.async) return this.runtime.converter.convert(this.runtime.decodeStored(stored), this.version);
    let view = this.views.get(stored);
    if (view === undefined) {
      const converted = this.runtime.converter.convert(this.runtime.decodeStored(stored), this.version);
      view = converted;
      if (typeof (converted as Promise<KubeObject>).then === 'function') {
        (converted as Promise<KubeObject>).catch(() => this.views.delete(stored));
      }
      this.views.set(stored, view);
    }
    return view;
  }

  toStorage(object: KubeObject): KubeObject | Promise<KubeObject> {
    return this.runtime.converter.convert(object, this.runtime.storageVersion);
  }

  fieldSet(object: KubeObject): FieldSet {
    return this.v.fields.fieldGetter(object);
  }

  convertFieldLabel(label: string, value: string): [string, string] {
    return this.v.fields.convertFieldLabel(label, value);
  }

  lookupIndex(label: string, value: string): ReadonlySet<string> | undefined {
    return this.runtime.lookupIndex(label, value);
  }

  tableColumns(): TableColumnDefinition[] {
    if (this.v.columns.length === 0) return [nameColumn, ageColumn];
    return [nameColumn, ...this.v.columns.map((c) => ({
      name: c.name, type: c.type, format: c.format ?? '',
      description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
    }))];
  }

  tableCells(object: KubeObject, now: number): unknown[] {
    if (this.v.columns.length === 0) return [object.metadata.name ?? '', ageCell(object, now)];
    return [object.metadata.name ?? '', ...this.v.columns.map((c) => printerColumnCell(object, c, now))];
  }

  decode(body: unknown, ctx: WriteContext): KubeObject {
    if (!isObject(body)) throw KubeError.badRequest(`json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type map[string]interface {}`);
    if (ctx.patched === true && ctx.strictError !== undefined) this.checkPatchedEnvelope(body, ctx.strictError, ctx.patchedText);
    if (typeof body.kind !== 'string' || body.kind === '') throw KubeError.badRequest(`Object 'Kind' is missing in '${stringifyJSON(body)}'`);
    if (typeof body.apiVersion !== 'string' || body.apiVersion === '') throw KubeError.badRequest(`Object 'apiVersion' is missing in '${stringifyJSON(body)}'`);
    // A patch's result of another apiVersion is refused by the validation (validateUpdate), after the
    // namespace, name and resourceVersion checks; the schema coercer leaves it as it is.
    const foreign = body.apiVersion !== this.apiVersion;
    if (foreign && (ctx.patched !== true || ctx.strictError === undefined)) {
      this.reportUnknownVersionFields(body, ctx);
      throw KubeError.badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${this.apiVersion})`);
    }
    if (ctx.patched === true && ctx.patchOverflow !== undefined && ctx.strictError !== undefined) {
      throw ctx.strictError(`json: cannot unmarshal number ${ctx.patchOverflow} into Go value of type float64`);
    }
    // Another kind is the validation's error (validateCreate, validateUpdate), after the store's own checks:
    // an update without a resourceVersion is refused for that first (test/differential/hostile.test.ts).
    const obj = cloneJSON(body) as KubeObject;
    let pruned: string[] = [];
    try {
      if (!foreign && body.kind === this.names.kind) pruned = this.v.compiled.defaultAndPrune(obj, { isResourceRoot: true });
      else if (!foreign) {
        // Another kind is neither pruned nor defaulted (unstructuredSchemaCoercer and unstructuredDefaulter
        // act only on the CRD's group and kind; a status write, which turns the kind back, keeps a null
        // status then: hostile seed 20270458); its metadata is decoded into ObjectMeta all the same.
        const shell = { apiVersion: this.apiVersion, kind: this.names.kind, metadata: obj.metadata ?? {} } as KubeObject;
        pruned = this.v.compiled.defaultAndPrune(shell, { isResourceRoot: true });
        if (obj.metadata !== undefined) obj.metadata = shell.metadata;
      }
    } catch (err) {
      // Metadata that does not decode into ObjectMeta: in the codec's words on a create or update
      // ("Widget in version "v1" cannot be handled as a Widget: …"), a 422 on `patch` for a patch.
      if (isDecodeError(err) && ctx.strictError !== undefined) throw ctx.strictError(err.message);
      throw err;
    }
    // The schema coercer prunes (and reports what it pruned) only an object of the CRD's group and kind:
    // another kind is refused later (validateUpdate) without unknown-field warnings for its content (hostile
    // seed 20270127), but its metadata is decoded into ObjectMeta before that, whose unknown members are
    // reported whatever the kind (seeds 20270206, 20270238).
    reportFieldProblems(ctx, body.kind === this.names.kind ? pruned : pruned.filter((p) => p.startsWith('metadata.')));
    if (!isObject(obj.metadata)) obj.metadata = {};
    return obj;
  }

  /**
   * A patch's result whose apiVersion or kind a patch broke, as the patcher answers it (kube-apiserver
   * 1.34.4), once their JSON types were checked (writeHandler.ts, for every kind): a null apiVersion fails
   * the accessor, a missing, null or empty kind is missing from the re-marshalled result (an apiVersion of
   * another group or version is the validation's 422; a missing one the 400 below, where kube-apiserver
   * answers a 500 "Internal error occurred" with the same words).
   */
  private checkPatchedEnvelope(body: Record<string, unknown>, strictError: (message: string) => KubeError, patchedText?: () => string): void {
    if (body.apiVersion === null) throw strictError('.apiVersion accessor error: <nil> is of the type <nil>, expected string');
    // The missing kind's message prints the patched bytes, as the 422 quotes them (a `-0` stays `-0`).
    if (body.kind === undefined || body.kind === null || body.kind === '') throw strictError(`Object 'Kind' is missing in '${patchedText?.() ?? goJSON(body)}'`);
  }

  /**
   * A body of this kind in a version of this group that the CRD does not define is decoded before the
   * version is compared: with no schema for it, every member but apiVersion, kind and metadata is an
   * unknown field (warned, or under `Strict` the codec's 400 naming the body's version), sorted as the
   * pruning reports them; metadata that does not decode is that 400 before anything (kube-apiserver
   * 1.34.4, test/customResourceVersionMismatch.test.ts).
   */
  private reportUnknownVersionFields(body: Record<string, unknown>, ctx: WriteContext): void {
    const { group, kind } = this.names;
    const apiVersion = String(body.apiVersion);
    const slash = apiVersion.indexOf('/');
    const version = apiVersion.slice(slash + 1);
    if (slash < 0 || apiVersion.slice(0, slash) !== group || body.kind !== kind || this.runtime.crd.spec.versions.some((v) => v.name === version)) return;
    const strictError = ctx.strictError === undefined ? undefined : (m: string): KubeError => KubeError.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${kind}: ${m}`);
    // Its metadata is decoded into ObjectMeta first (its unknown members are reported first).
    let unknownInMetadata: string[];
    try {
      unknownInMetadata = this.v.compiled.defaultAndPrune({ apiVersion: this.apiVersion, kind, metadata: cloneJSON(body.metadata ?? {}) } as KubeObject, { isResourceRoot: true });
    } catch (err) {
      if (isDecodeError(err) && strictError !== undefined) throw strictError(err.message);
      throw err;
    }
    const unknown = Object.keys(body).filter((k) => k !== 'apiVersion' && k !== 'kind' && k !== 'metadata').sort();
    reportFieldProblems({ ...ctx, strictError }, [...unknownInMetadata, ...unknown]);
  }

  prepareForCreate(object: KubeObject, _ctx: WriteContext): void {
    if (this.names.status) delete object.status;
    object.metadata.generation = 1;
  }

  prepareForUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): void {
    // The store reads a custom resource's deletionTimestamp with Unstructured.GetDeletionTimestamp: the
    // zero time (written as null) and a time Go writes but cannot parse back (a year past 9999) are none,
    // and a read drops them; they are none here too, so an update neither refuses nor deletes for them.
    // Only here, after the field manager saw them: it records the member for the request's manager
    // (kube-apiserver 1.34.4, hostile seeds 20270201 and 20270209).
    const deleted: unknown = object.metadata.deletionTimestamp;
    if (deleted === null || (typeof deleted === 'string' && !parseRFC3339(deleted).ok)) delete object.metadata.deletionTimestamp;
    if (ctx.subresource === 'status') {
      const status = object.status;
      const { managedFields, resourceVersion } = object.metadata;
      for (const k of Object.keys(object)) delete object[k];
      assignOwn(object, cloneJSON(old));
      object.metadata.resourceVersion = resourceVersion;
      if (managedFields !== undefined) object.metadata.managedFields = managedFields;
      else delete object.metadata.managedFields;
      if (status === undefined) delete object.status;
      else object.status = status;
      return;
    }
    if (this.names.status) {
      if (old.status !== undefined) object.status = old.status;
      else delete object.status;
    }
    if (!deepEqual(withoutMetadata(object), withoutMetadata(old)) || this.keepsIntegralFloat(object, ctx)) {
      object.metadata.generation = (typeof old.metadata.generation === 'number' ? old.metadata.generation : 0) + 1;
    }
  }

  /**
   * Whether the request wrote an integral float (`1.0`) that the object keeps outside its metadata (and
   * status, when that is a subresource): Go holds it as a float64, which `apiequality.Semantic.DeepEqual`
   * does not take for the int64 the old object holds, so the generation moves.
   */
  private keepsIntegralFloat(object: KubeObject, ctx: WriteContext): boolean {
    for (const path of ctx.integralFloats ?? []) {
      if (path.length === 0 || path[0] === 'metadata' || (path[0] === 'status' && this.names.status)) continue;
      let v: unknown = object;
      for (const key of path) v = v !== null && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
      if (typeof v === 'number' && Number.isSafeInteger(v)) return true;
    }
    return false;
  }

  managedFieldsType(): TypeNode {
    this.fieldsType ??= typeFromStructuralSchema(this.v.schema);
    return this.fieldsType;
  }

  /** Schema, CEL and metadata validation, all by `@kubekit/crd`. */
  validateCreate(object: KubeObject, ctx: WriteContext): FieldError[] {
    this.kindMismatch(object);
    const errs = validateCustomResource(this.runtime.crd, this.version, object, undefined, { integralFloats: ctx.integralFloats });
    if (errs.length === 0) ctx.warnings.push(...finalizerWarnings(object, undefined));
    return errs;
  }

  validateUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): FieldError[] {
    const errs = validateCustomResource(this.runtime.crd, this.version, object, old, { integralFloats: ctx.integralFloats, ...(ctx.subresource === 'status' ? { subresource: 'status' as const } : {}) });
    // Another kind, or (from a patch) another apiVersion: the strategy's ValidateTypeMeta, after the
    // update's metadata errors, in a 422 naming the object's own group and kind (kube-apiserver 1.34.4).
    if (object.kind !== this.names.kind || object.apiVersion !== this.apiVersion) {
      const apiVersion = String(object.apiVersion);
      const slash = apiVersion.indexOf('/');
      throw KubeError.invalid({ group: slash < 0 ? '' : apiVersion.slice(0, slash), kind: String(object.kind) }, object.metadata.name ?? '', errs);
    }
    if (errs.length === 0) ctx.warnings.push(...finalizerWarnings(object, old));
    return errs;
  }

  /** kube-apiserver 1.34 (the differential suite): another kind is a 422 naming the request's kind, not 400. */
  private kindMismatch(object: KubeObject): void {
    if (object.kind === this.names.kind) return;
    throw KubeError.invalid({ group: this.names.group, kind: String(object.kind) }, object.metadata.name ?? '', [new FieldError('FieldValueInvalid', 'kind', object.kind, `must be ${this.names.kind}`)]);
  }
}

/**
 * The custom resource strategy's WarningsOnCreate/WarningsOnUpdate (apiextensions-apiserver
 * registry/customresource/strategy.go): each finalizer the write adds (in sorted order) that has no
 * `/` and is not a standard one (`kubernetes`, `orphan`, `foregroundDeletion`) gets a warning.
 */
function finalizerWarnings(object: KubeObject, old: KubeObject | undefined): string[] {
  const had = new Set(old?.metadata.finalizers ?? []);
  const added = [...new Set(object.metadata.finalizers ?? [])].filter((f) => !had.has(f)).sort();
  return added.filter((f) => !f.includes('/') && !standardFinalizers.includes(f)).map((f) => `metadata.finalizers: ${goQuote(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`);
}

function withoutMetadata(o: KubeObject): Record<string, unknown> {
  const { metadata: _m, ...rest } = o;
  return rest;
}

/**
 * The replicas path of every version of a CRD (`null` for a version without the scale subresource), as
 * the custom resource handler gives them to the ScaleHandler (`replicasPathInCustomResource`).
 */
function crdReplicasPaths(crd: CustomResourceDefinition): ReplicasPathMappings {
  const out = new Map<string, readonly string[] | null>();
  for (const v of crd.spec.versions) {
    const path = v.subresources?.scale?.specReplicasPath;
    out.set(`${crd.spec.group}/${v.name}`, typeof path === 'string' ? path.replace(/^\./, '').split('.') : null);
  }
  return out;
}
