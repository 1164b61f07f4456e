/**
 * The `/scale` subresource: the `autoscaling/v1` Scale of an object (its replicas paths and selector),
 * a write of one back to the object, and the managed fields of such a write (the field manager records
 * it on the Scale, `managedfields.ScaleHandler` converts between the Scale's entries and the object's).
 *
 * A custom resource's Scale is decoded as apiextensions-apiserver's scale handler decodes it: its codec
 * knows `autoscaling/v1` Scale only, and the custom resource's typer does not know the Go type at all,
 * so a PUT whose body does not decode (another version or kind, a replicas of the wrong type, under
 * `Strict` an unknown field) gets the 400 that `transformDecodeError` makes of that (`no kind is
 * registered for the type v1.Scale`); a patch whose result does not decode gets the patcher's 422 on
 * `patch` quoting the patched Scale (kube-apiserver 1.34.4, the hostile differential suite's scale family).
 *
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/registry/customresource/etcd.go
 */
import { FieldError, KubeError, goJSON, goJSONString, goQuote, goSprint, type KubeObject, type ManagedFieldsEntry } from '@kubekit/core';
import { builtinOpenAPISchemas } from './builtinSchemas.js';
import { convertErrorFromUnstructured, decodeErrorAsGo } from './builtinGoJSON.js';
import { reportFieldProblems } from './internal/fieldValidation.js';
import { otherKindReason } from './internal/schemeKinds.js';
import { getPath, setPath } from './internal/jsonPath.js';
import { cloneJSON, isObject } from './internal/own.js';
import { pruneUnknownFields } from './internal/pruneUnknownFields.js';
import { AppliedConfiguration, applyManagedFields, updateManagedFields, type FieldManagerContext } from './managedFields/fieldManager.js';
import { parentEntriesOf, scaleEntriesOf, type ReplicasPathMappings } from './managedFields/scaleHandler.js';
import { typeFromStructuralSchema, type TypeNode } from './managedFields/schema.js';
import type { ResourceType, TableColumnDefinition, WriteContext } from './resourceType.js';
import type { AnswerShape } from './restRequest.js';
import { ageCell, ageColumn, builtinAgeColumn, nameColumn, rowObject } from './table.js';

const scaleGVK = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/** `transformDecodeError`'s answer when the custom resource's typer is asked for the Scale's kinds. */
const unregisteredScale = 'no kind is registered for the type v1.Scale in scheme "pkg/runtime/scheme.go:110"';

/** The Scale of an object (`scaleFromCustomResource`; a built-in kind's the same way). */
export function scaleOf(type: ResourceType, obj: KubeObject): KubeObject {
  const scale = type.names.scale!;
  const spec = getPath(obj, scale.specReplicasPath);
  const status = getPath(obj, scale.statusReplicasPath);
  const selector = scale.selector !== undefined ? scale.selector(obj) : scale.labelSelectorPath === undefined ? undefined : getPath(obj, scale.labelSelectorPath);
  const m = obj.metadata;
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    // ScaleSpec.Replicas is `omitempty`: a Scale of 0 replicas is written without them.
    spec: typeof spec === 'number' && spec !== 0 ? { replicas: spec } : {},
    status: { replicas: typeof status === 'number' ? status : 0, ...(typeof selector === 'string' ? { selector } : {}) },
  };
}

/** The Desired and Available columns of a built-in kind's Scale (the printers' `scaleColumnDefinitions`, autoscaling/v1's field docs). */
const builtinScaleColumns: TableColumnDefinition[] = [
  { ...nameColumn, format: '' },
  { name: 'Desired', type: 'integer', format: '', description: 'replicas is the desired number of instances for the scaled object.', priority: 0 },
  { name: 'Available', type: 'integer', format: '', description: 'replicas is the actual number of observed instances of the scaled object.', priority: 0 },
  builtinAgeColumn,
];

/** A custom resource's Scale columns (apiextensions' scale table convertor). */
const customResourceScaleColumns: TableColumnDefinition[] = [
  nameColumn,
  { name: 'Desired', type: 'integer', format: '', description: 'Number of desired replicas', priority: 0 },
  { name: 'Available', type: 'integer', format: '', description: 'Number of actual replicas', priority: 0 },
  ageColumn,
];

/**
 * How a Scale is answered as a Table (`kubectl get --subresource=scale`): Name, Desired, Available, Age,
 * one row; and the Go type a 406 names (`*autoscaling.Scale`, a custom resource's `*v1.Scale`).
 */
export function scaleAnswerShape(type: ResourceType): AnswerShape {
  const custom = type.customResource === true;
  return {
    goType: custom ? '*v1.Scale' : '*autoscaling.Scale',
    table: (scale, include, apiVersion, now) => {
      const spec = (scale as { spec?: { replicas?: number } }).spec?.replicas ?? 0;
      const status = (scale as { status?: { replicas?: number } }).status?.replicas ?? 0;
      return {
        kind: 'Table', apiVersion,
        metadata: scale.metadata.resourceVersion === undefined ? {} : { resourceVersion: scale.metadata.resourceVersion },
        columnDefinitions: custom ? customResourceScaleColumns : builtinScaleColumns,
        rows: [{ cells: [scale.metadata.name, spec, status, ageCell(scale, now)], object: rowObject(scale, include, apiVersion) }],
      };
    },
  };
}

/**
 * The Scale a read of `/scale` answers; a custom resource without replicas at its replicas path has none
 * (ScaleREST.Get: the 500 `NewInternalError` makes of it).
 */
export function readScale(type: ResourceType, obj: KubeObject): KubeObject {
  if (type.customResource === true && getPath(obj, type.names.scale!.specReplicasPath) === undefined) {
    const message = `the spec replicas field ${JSON.stringify(type.names.scale!.specReplicasPath)} does not exist`;
    throw new KubeError('InternalError', `Internal error occurred: ${message}`, { details: { causes: [{ message }] } });
  }
  return scaleOf(type, obj);
}

/**
 * The replicas a custom resource's live Scale has when its object has none at its replicas path: the
 * smallest int32, which `scaleUpdatedObjectInfo` refuses if the write leaves it (a read shows 0).
 */
const unsetReplicas = -2147483648;

/** The object `old` with the replicas of the Scale `body` at its replicas path. */
export function withScaleReplicas(type: ResourceType, body: unknown): (old: KubeObject) => KubeObject {
  return (old) => {
    const scale = isObject(body) ? body : {};
    const spec = isObject(scale.spec) ? scale.spec : {};
    const replicas = spec.replicas ?? 0;
    if (type.customResource === true && replicas === unsetReplicas) {
      throw KubeError.badRequest(`the spec replicas field ${JSON.stringify(type.names.scale!.specReplicasPath)} cannot be empty`);
    }
    // A built-in kind's Scale is validated as a Scale (ValidateScale); a custom resource's replicas go
    // into the object, whose validation (schema, then the scale paths) answers for them.
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || (replicas < 0 && type.customResource !== true)) {
      throw KubeError.invalid({ group: 'autoscaling', kind: 'Scale' }, old.metadata.name ?? '', [
        new FieldError('FieldValueInvalid', 'spec.replicas', replicas, 'must be greater than or equal to 0'),
      ]);
    }
    const obj = cloneJSON(old);
    setPath(obj as Record<string, unknown>, type.names.scale!.specReplicasPath, replicas);
    return obj;
  };
}

/** The Scale as the field manager walks it. */
let scaleTypeNode: TypeNode | undefined;
function scaleType(): TypeNode {
  scaleTypeNode ??= typeFromStructuralSchema({
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
      status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
    },
  });
  return scaleTypeNode;
}

/** The field manager's view of a write of the Scale. */
function scaleContext(now: string): FieldManagerContext {
  return { type: scaleType(), apiVersion: 'autoscaling/v1', subresource: 'scale', now };
}

/** The replicas path of every version of the object's resource (a built-in kind's: its one path in every version). */
function mappingsOf(type: ResourceType, parentGroupVersion: string): ReplicasPathMappings {
  const scale = type.names.scale!;
  return scale.replicasPathMappings ?? new Map([[parentGroupVersion, scale.specReplicasPath.replace(/^\./, '').split('.')]]);
}

/**
 * The live Scale a write through `/scale` starts from, with the managed fields the ScaleHandler gives it
 * (`scaleUpdatedObjectInfo.UpdatedObject`; a read of the Scale shows none).
 */
export function liveScaleOf(type: ResourceType, old: KubeObject, parentGroupVersion: string): KubeObject {
  const scale = scaleOf(type, old);
  if (type.customResource === true && getPath(old, type.names.scale!.specReplicasPath) === undefined) scale.spec = { replicas: unsetReplicas };
  const entries = scaleEntriesOf(old.metadata.managedFields, mappingsOf(type, parentGroupVersion));
  if (entries !== undefined) scale.metadata.managedFields = entries;
  return scale;
}

/**
 * The object's managed fields after a write through `/scale` (not an apply) turned the Scale `live` into
 * `next`: the field manager records the write on the Scale (not at all when the Scale had no managed
 * fields: `skipNonAppliedManager`), and the ScaleHandler takes the Scale's entries back to the object.
 */
export function scaleWriteManagedFields(type: ResourceType, old: KubeObject, live: KubeObject, next: KubeObject, manager: string, now: string, parentGroupVersion: string): ManagedFieldsEntry[] | undefined {
  // The field manager sees the decoded Scale, whose spec.replicas is `omitempty`: a write of 0 replicas
  // removes the field (its owners lose it, the writer gets no entry for it).
  const spec = isObject(next.spec) ? next.spec : undefined;
  const typed = spec !== undefined && (spec.replicas === 0 || spec.replicas === null) ? { ...next, spec: Object.fromEntries(Object.entries(spec).filter(([k]) => k !== 'replicas')) } : next;
  const scaleEntries = updateManagedFields(live, typed, manager, scaleContext(now));
  return parentEntriesOf(old.metadata.managedFields, scaleEntries, mappingsOf(type, parentGroupVersion), parentGroupVersion);
}

/**
 * A server-side apply through `/scale`: the configuration (an `autoscaling/v1` Scale, or the
 * `versionCheckManager`'s 400) is applied to the live Scale by the field manager, with its conflicts;
 * the applied replicas go to the object and the Scale's managed fields back to the object's.
 *
 * A custom resource's apply that changes its Scale fails after the conflicts are checked, with
 * kube-apiserver 1.34.4's 500: the field manager of the custom resource's scale scope converts the
 * applied Scale with the custom resource's converter, which refuses `autoscaling/v1`. An apply that
 * changes nothing succeeds there, and here.
 */
export function applyToScale(type: ResourceType, old: KubeObject, config: KubeObject, manager: string, force: boolean, now: string, parentGroupVersion: string): KubeObject {
  const apiVersion = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  const kind = typeof config.kind === 'string' ? config.kind : '';
  if (apiVersion !== 'autoscaling/v1' || kind !== 'Scale') {
    const slash = apiVersion.indexOf('/');
    throw KubeError.badRequest(`invalid object type: ${slash < 0 ? `/${apiVersion}` : apiVersion}, Kind=${kind}`);
  }
  const live = liveScaleOf(type, old, parentGroupVersion);
  // A Scale without managed fields (nobody owns the replicas) is first credited to before-first-apply:
  // the skipNonApplied manager updates an empty Scale into the live one, and a custom resource's scope
  // cannot convert that empty Scale either (hostile seed 20261213, case 324).
  if (type.customResource === true && (live.metadata.managedFields ?? []).length === 0) {
    throw new KubeError('Unknown', 'failed to create manager for existing fields: failed to convert live object (/; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1');
  }
  const result = applyManagedFields(live, new AppliedConfiguration(config), manager, { force }, scaleContext(now));
  if (!result.noop && type.customResource === true) {
    const m = isObject(config.metadata) ? config.metadata : {};
    const where = `${typeof m.namespace === 'string' ? m.namespace : ''}/${typeof m.name === 'string' ? m.name : ''}`;
    throw new KubeError('Unknown', `failed to convert new object (${where}; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1`);
  }
  const obj = withScaleReplicas(type, result.object)(old);
  const entries = parentEntriesOf(old.metadata.managedFields, result.managedFields, mappingsOf(type, parentGroupVersion), parentGroupVersion);
  if (entries === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries;
  return obj;
}

/** Unknown members of a Scale (decoding it into the Go type drops them). */
function unknownScaleFields(body: Record<string, unknown>, sorted: boolean): string[] {
  const schema = builtinOpenAPISchemas().get('io.k8s.api.autoscaling.v1.Scale');
  return schema === undefined ? [] : pruneUnknownFields(cloneJSON(body), schema, { sorted });
}

/**
 * Decodes the body of a PUT to a custom resource's `/scale` as its handler does: any failure to decode it
 * into `autoscaling/v1` Scale is the 400 of the custom resource's typer not knowing that Go type; unknown
 * and duplicate fields are warned under `Warn` (that 400 under `Strict`).
 */
export function decodeCustomResourceScale(body: unknown, wctx: WriteContext): void {
  const refused = (): KubeError => KubeError.badRequest(unregisteredScale);
  if (!isObject(body)) throw refused();
  if (!typeOk(body.apiVersion, 'autoscaling/v1') || !typeOk(body.kind, 'Scale')) throw refused();
  if (decodeErrorAsGo(body, scaleGVK, { bodyText: wctx.bodyText }) !== undefined || integralFloatIn(wctx)) throw refused();
  const unknown = unknownScaleFields(body, false);
  if (wctx.fieldValidation === 'Strict' && (unknown.length > 0 || wctx.duplicateFields.length > 0)) throw refused();
  reportFieldProblems(wctx, unknown);
}

/**
 * Decodes the body of a PUT to a built-in kind's `/scale` as its handler does: into `autoscaling/v1`
 * Scale, so another type is the 400 of the scheme (a kind it has that does not convert to a Scale, or one
 * it does not have), a wrong JSON type or an int32 out of range is encoding/json's error, and unknown
 * fields are warned (`Warn`) or that 400 (`Strict`), each after `<kind> in version "<v>" cannot be handled as a Scale: `.
 */
export function decodeBuiltinScale(body: unknown, wctx: WriteContext): void {
  if (!isObject(body)) return;
  const apiVersion = typeof body.apiVersion === 'string' && body.apiVersion !== '' ? body.apiVersion : 'autoscaling/v1';
  const kind = typeof body.kind === 'string' && body.kind !== '' ? body.kind : 'Scale';
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  const prefix = `${kind} in version ${goQuote(version)} cannot be handled as a Scale: `;
  if (apiVersion !== 'autoscaling/v1' || kind !== 'Scale') {
    // A kind the scheme has is decoded into its own Go type first (its type errors are reported), then
    // fails to convert; a Scale of another version (apps/v1beta1) converts, and is then the handler's
    // check of the API version.
    const why = otherKindReason(apiVersion, kind, 'autoscaling.Scale', () => decodeErrorAsGo(body, { group, version, kind }, { bodyText: wctx.bodyText }));
    throw KubeError.badRequest(why === undefined ? `the API version in the data (${apiVersion}) does not match the expected API version (autoscaling/v1)` : prefix + why);
  }
  const goError = decodeErrorAsGo(body, scaleGVK, { bodyText: wctx.bodyText }) ?? integralFloatError(wctx);
  if (goError !== undefined) throw KubeError.badRequest(prefix + goError);
  // Strict: the Scale's own 400, not the parent kind's.
  reportFieldProblems({ ...wctx, strictError: undefined }, unknownScaleFields(body, false), prefix);
}

/** encoding/json's error for a Scale's replicas written as an integral float (`2.0`), which an int32 does not decode. */
function integralFloatError(wctx: WriteContext): string | undefined {
  for (const member of ['spec', 'status'] as const) {
    if (!(wctx.integralFloats ?? []).some((p) => p.length === 2 && p[0] === member && p[1] === 'replicas')) continue;
    // The number as written: the first non-integral replicas literal of the body.
    const written = /"replicas"\s*:\s*(-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)/g;
    let text: string | undefined;
    for (const m of (wctx.bodyText ?? '').matchAll(written)) if (!/^-?[0-9]+$/.test(m[1])) { text = m[1]; break; }
    return `json: cannot unmarshal number ${text ?? '0.0'} into Go struct field ${member === 'spec' ? 'ScaleSpec' : 'ScaleStatus'}.${member}.replicas of type int32`;
  }
  return undefined;
}

/** An apiVersion or kind that defaults to `want` when absent, or is `want`. */
function typeOk(v: unknown, want: string): boolean {
  return v === undefined || v === null || v === '' || v === want;
}

/** Whether the body wrote a Scale's replicas as an integral float (`2.0`), which an int32 does not decode. */
function integralFloatIn(wctx: WriteContext): boolean {
  return (wctx.integralFloats ?? []).some((p) => p.length === 2 && (p[0] === 'spec' || p[0] === 'status') && p[1] === 'replicas');
}

/**
 * Checks the result of a JSON or merge patch of a custom resource's Scale as the patcher decodes it into
 * `autoscaling/v1` Scale (`runtime.DecodeInto`): a failure is a 422 on `patch` quoting the patched Scale;
 * unknown fields are warned (`Warn`) or refused in that 422 (`Strict`).
 */
export function checkPatchedCustomResourceScale(patched: unknown, live: KubeObject, wctx: WriteContext): void {
  const quote = (why: string): KubeError => KubeError.invalid({ group: '', kind: '' }, '', [new FieldError('FieldValueInvalid', 'patch', patchedScaleJSON(patched, live), why)]);
  if (!isObject(patched)) throw quote(`json: cannot unmarshal ${Array.isArray(patched) ? 'array' : typeof patched} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  const apiVersion = typeof patched.apiVersion === 'string' && patched.apiVersion !== '' ? patched.apiVersion : 'autoscaling/v1';
  const kind = typeof patched.kind === 'string' && patched.kind !== '' ? patched.kind : 'Scale';
  if (apiVersion !== 'autoscaling/v1' || kind !== 'Scale') throw quote(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:110"`);
  const goError = decodeErrorAsGo(patched, scaleGVK, { sorted: true });
  if (goError !== undefined) throw quote(goError);
  const unknown = unknownScaleFields(patched, true);
  if (unknown.length > 0 && wctx.fieldValidation === 'Strict') throw quote(`strict decoding error: ${unknown.map((p) => `unknown field ${JSON.stringify(p)}`).join(', ')}`);
  reportFieldProblems({ ...wctx, duplicateFields: [] }, unknown);
}

/**
 * Checks the result of a patch of a built-in kind's Scale as the patcher decodes it: a JSON or merge
 * patch's result as a custom resource's ({@link checkPatchedCustomResourceScale}); a strategic merge patch's
 * is converted from its map onto the Go type, whose failure (`unrecognized type: int32`) is the 422 on
 * `patch` quoting the patch as Go prints a map.
 */
export function checkPatchedBuiltinScale(patched: unknown, live: KubeObject, wctx: WriteContext, strategic: boolean, patch: unknown): void {
  if (!strategic) {
    checkPatchedCustomResourceScale(patched, live, wctx);
    return;
  }
  const quote = (why: string): KubeError => KubeError.invalid({ group: '', kind: '' }, '', [new FieldError('FieldValueInvalid', 'patch', goSprint(patch), why)]);
  const why = isObject(patched) ? convertErrorFromUnstructured(patched, scaleGVK) : undefined;
  if (why !== undefined) throw quote(why);
  // The converter's unknown fields: warned (Warn), or that 422 (Strict).
  const unknown = isObject(patched) ? unknownScaleFields(patched, true) : [];
  if (unknown.length > 0 && wctx.fieldValidation === 'Strict') throw quote(`strict decoding error: ${unknown.map((p) => `unknown field ${JSON.stringify(p)}`).join(', ')}`);
  reportFieldProblems({ ...wctx, duplicateFields: [] }, unknown);
}

/**
 * The patched Scale as the patcher's 422 quotes it: json-patch writes the members it re-read in sorted
 * order and keeps the text of those it did not (the metadata, in the Go struct's order, as the live Scale
 * was encoded).
 */
function patchedScaleJSON(patched: unknown, live: KubeObject): string {
  if (!isObject(patched)) return goJSON(patched);
  const keys = Object.keys(patched).sort();
  return `{${keys.map((k) => {
    const v = patched[k];
    const kept = k === 'metadata' && isObject(v) && goJSON(v) === goJSON(live.metadata);
    // The live Scale's metadata in its Go structs' order, as scaleOf and the ScaleHandler write it.
    const text = kept ? structOrder(v) : goJSON(v);
    return `${goJSONString(k)}:${text}`;
  }).join(',')}}`;
}

/** An object's members in their own order (one level), each value as Go writes it; managed fields entries likewise. */
function structOrder(v: Record<string, unknown>): string {
  const member = (k: string, x: unknown): string => {
    if (k === 'managedFields' && Array.isArray(x)) return `[${x.map((e) => (isObject(e) ? structOrder(e) : goJSON(e))).join(',')}]`;
    return goJSON(x);
  };
  return `{${Object.keys(v).filter((k) => v[k] !== undefined).map((k) => `${goJSONString(k)}:${member(k, v[k])}`).join(',')}}`;
}
