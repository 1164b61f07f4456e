/**
 * The apiextensions.k8s.io/v1 CustomResourceDefinition resource: defaulting, the strategy
 * (status kept apart from spec, generation on spec changes, `storedVersions`), validation by
 * `@kubekit/crd`, the `CustomResourceFieldSelectors` drop-disabled-fields rule, and the deletion
 * flow (the `customresourcecleanup.apiextensions.k8s.io` finalizer and the `Terminating` condition).
 *
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/registry/customresourcedefinition/strategy.go
 */
import { FieldError, KubeError, goQuote, type KubeObject } from '@kubekit/core';
import { builtinResourceFields, convertBuiltinFieldLabel } from '@kubekit/attrs';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '@kubekit/crd';
import { withCondition } from './internal/conditions.js';
import { semanticEqual } from './internal/deepEqual.js';
import { reportFieldProblems } from './internal/fieldValidation.js';
import { unrecognizedFormats, validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './internal/semantics.js';
import type { FieldSet, ResourceNames, ResourceType, TableColumnDefinition, WriteContext } from './resourceType.js';
import { bucketOf } from './storage/objectStore.js';
import { apiextensionsSchemeKind, otherKindReason, versionOf } from './internal/schemeKinds.js';
import { nameColumn } from './table.js';
import { decodeObjectShape } from './objectMeta.js';
import { assignOwn, cloneJSON } from './internal/own.js';
import { convertErrorFromUnstructured, decodeErrorAsGo, encodeAsGo, storedAsProtobuf } from './builtinGoJSON.js';

/** The finalizer the apiserver puts on a CRD being deleted, removed once its objects are gone. */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

const apiVersion = 'apiextensions.k8s.io/v1';
const crdGVK = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' };
const fields = builtinResourceFields(apiVersion, 'CustomResourceDefinition');

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Sets (or replaces) a condition, keeping its transition time when the status does not change. */
export function setCondition(crd: CustomResourceDefinition, condition: CustomResourceDefinitionCondition, now: string): void {
  crd.status ??= {};
  crd.status.conditions = withCondition(crd.status.conditions ?? [], { ...condition, lastTransitionTime: now });
}

/** The CRD defaults (`SetDefaults_CustomResourceDefinition`). */
function setDefaults(crd: CustomResourceDefinition): void {
  const spec = crd.spec as Partial<CustomResourceDefinition['spec']> | undefined;
  if (!isObject(spec)) return;
  if (isObject(spec.names)) {
    if ((spec.names.singular ?? '') === '' && typeof spec.names.kind === 'string') spec.names.singular = spec.names.kind.toLowerCase();
    if ((spec.names.listKind ?? '') === '' && typeof spec.names.kind === 'string' && spec.names.kind !== '') spec.names.listKind = `${spec.names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const svc = spec.conversion.webhook?.clientConfig?.service;
  if (svc !== undefined && svc.port === undefined) svc.port = 443;
}

/** Whether any version of a CRD uses `selectableFields`. */
function selectableFieldsInUse(crd: CustomResourceDefinition | undefined): boolean {
  return (crd?.spec?.versions ?? []).some((v) => (v.selectableFields ?? []).length > 0);
}

/**
 * The codec's refusal of a body of another kind or version than a v1 CustomResourceDefinition (its version and
 * kind defaulted from the URL's when absent), in apiextensions-apiserver's scheme: a kind it does not register
 * (`no kind "Pod" is registered for version "apps/v1"`), one that does not convert (`converting
 * (v1.CustomResourceDefinitionList) to (apiextensions.CustomResourceDefinition): unknown conversion`), or, for
 * the v1beta1 kind, which converts, the handler's API version check.
 */
function refuseOtherKind(body: Record<string, unknown>, ctx: WriteContext): void {
  const given = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const kind = typeof body.kind === 'string' && body.kind !== '' ? body.kind : 'CustomResourceDefinition';
  const version = given === '' ? apiVersion : given;
  if (version === apiVersion && kind === 'CustomResourceDefinition') return;
  const gvk = { group: version.includes('/') ? version.slice(0, version.indexOf('/')) : '', version: versionOf(version), kind };
  const why = otherKindReason(version, kind, 'apiextensions.CustomResourceDefinition', () => decodeErrorAsGo(body, gvk, { bodyText: ctx.bodyText }), apiextensionsSchemeKind);
  if (why === undefined) throw KubeError.badRequest(`the API version in the data (${given}) does not match the expected API version (${apiVersion})`);
  if (ctx.patched === true && ctx.strictError !== undefined) throw ctx.strictError(why);
  throw KubeError.badRequest(`${kind} in version ${goQuote(gvk.version)} cannot be handled as a CustomResourceDefinition: ${why}`);
}

/** The CustomResourceDefinition resource. */
export class CustomResourceDefinitionType implements ResourceType {
  readonly names: ResourceNames = {
    group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', singular: 'customresourcedefinition',
    kind: 'CustomResourceDefinition', listKind: 'CustomResourceDefinitionList', namespaced: false, shortNames: ['crd', 'crds'],
    categories: ['api-extensions'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    nameValidation: 'subdomain', status: true,
  };
  readonly groupResource = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };
  readonly bucket = bucketOf(this.groupResource);
  readonly allowUnconditionalUpdate = false;
  readonly strategicMergePatch = true;
  readonly deleteReturnsObject = true;

  /** @param customResourceFieldSelectors the `CustomResourceFieldSelectors` feature gate */
  constructor(private readonly customResourceFieldSelectors: boolean) {}

  fromStorage(stored: KubeObject): KubeObject {
    return stored;
  }

  toStorage(object: KubeObject): KubeObject {
    // Stored in protobuf as the built-in kinds are (a new CRD's conditions read back as null).
    storedAsProtobuf(object, crdGVK);
    return object;
  }

  fieldSet(object: KubeObject): FieldSet {
    return fields === undefined ? { 'metadata.name': object.metadata.name ?? '' } : fields.fieldGetter(object);
  }

  convertFieldLabel(label: string, value: string): [string, string] {
    return convertBuiltinFieldLabel(apiVersion, 'CustomResourceDefinition', label, value);
  }

  tableColumns(): TableColumnDefinition[] {
    return [nameColumn, { name: 'Created At', type: 'date', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 }];
  }

  tableCells(object: KubeObject): unknown[] {
    return [object.metadata.name ?? '', object.metadata.creationTimestamp ?? ''];
  }

  decode(body: unknown, ctx: WriteContext): KubeObject {
    reportFieldProblems(ctx, []);
    if (isObject(body)) refuseOtherKind(body, ctx);
    // Decoding into the Go type first: a field of the wrong JSON type is the codec's 400 (a patch's 422).
    const gvk = crdGVK;
    const goError = !isObject(body) ? undefined : ctx.converted === true ? convertErrorFromUnstructured(body, gvk) : decodeErrorAsGo(body, gvk, { bodyText: ctx.bodyText });
    if (goError !== undefined) throw ctx.strictError !== undefined ? ctx.strictError(goError) : KubeError.badRequest(goError);
    const obj = decodeObjectShape(cloneJSON(body));
    // As the Go object holds it: empty omitempty members dropped, a null version a zero one.
    encodeAsGo(obj, crdGVK);
    // The typed decoder takes the URL's version and kind for those the body leaves out.
    obj.apiVersion = apiVersion;
    obj.kind = 'CustomResourceDefinition';
    setDefaults(obj as unknown as CustomResourceDefinition);
    return obj;
  }

  /** The feature gate's drop-disabled-fields rule: `selectableFields` only when the old CRD already used them. */
  private dropDisabledFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): void {
    if (this.customResourceFieldSelectors || selectableFieldsInUse(old)) return;
    for (const v of crd.spec?.versions ?? []) delete v.selectableFields;
  }

  prepareForCreate(object: KubeObject, _ctx: WriteContext): void {
    const crd = object as unknown as CustomResourceDefinition;
    const storage = (crd.spec?.versions ?? []).find((v) => v.storage)?.name;
    // A new CRD's conditions are Go's nil slice, which the apiserver prints as null.
    crd.status = { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: storage === undefined ? [] : [storage] };
    object.metadata.generation = 1;
    this.dropDisabledFields(crd, undefined);
  }

  prepareForUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): void {
    const crd = object as unknown as CustomResourceDefinition;
    const oldCRD = old as unknown as CustomResourceDefinition;
    if (ctx.subresource === 'status') {
      const status = crd.status;
      const { resourceVersion } = object.metadata;
      for (const k of Object.keys(object)) delete object[k];
      assignOwn(object, cloneJSON(old));
      object.metadata.resourceVersion = resourceVersion;
      if (status === undefined) delete object.status;
      else crd.status = status;
      return;
    }
    crd.status = cloneJSON(oldCRD.status);
    if (!semanticEqual(crd.spec, oldCRD.spec)) object.metadata.generation = (old.metadata.generation ?? 0) + 1;
    const storage = (crd.spec?.versions ?? []).find((v) => v.storage)?.name;
    if (storage !== undefined) {
      crd.status ??= {};
      const stored = crd.status.storedVersions ?? [];
      if (!stored.includes(storage)) crd.status.storedVersions = [...stored, storage];
    }
    this.dropDisabledFields(crd, oldCRD);
  }

  /**
   * `@kubekit/crd` validates the metadata too (the name must be `<plural>.<group>`). A valid CRD gets
   * the strategy's warnings (`WarningsOnCreate`): formats the apiserver does not validate.
   */
  validateCreate(object: KubeObject, ctx: WriteContext): FieldError[] {
    const errs = validateCustomResourceDefinition(object as unknown as CustomResourceDefinition);
    if (errs.length === 0) for (const f of unrecognizedFormats(object)) ctx.warnings.push(`unrecognized format ${JSON.stringify(f)}`);
    return errs;
  }

  /** As {@link validateCreate}; the warnings (`WarningsOnUpdate`) name only formats the old CRD did not have. */
  validateUpdate(object: KubeObject, old: KubeObject, ctx: WriteContext): FieldError[] {
    const errs = validateCustomResourceDefinitionUpdate(object as unknown as CustomResourceDefinition, old as unknown as CustomResourceDefinition);
    if (errs.length === 0 && ctx.subresource === '') for (const f of unrecognizedFormats(object, old)) ctx.warnings.push(`unrecognized format ${JSON.stringify(f)}`);
    return errs;
  }

  /** A CRD's first deletion waits for its objects to be cleaned up. */
  deferDeletion(object: KubeObject): boolean {
    return object.metadata.deletionTimestamp === undefined;
  }

  markDeleting(object: KubeObject): void {
    const crd = object as unknown as CustomResourceDefinition;
    const fin = object.metadata.finalizers ?? [];
    if (!fin.includes(customResourceCleanupFinalizer)) object.metadata.finalizers = [...fin, customResourceCleanupFinalizer];
    setCondition(crd, {
      type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    }, object.metadata.deletionTimestamp ?? '');
  }
}
