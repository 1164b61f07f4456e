/**
 * Writes: create (POST), update (PUT), patch (PATCH: merge, JSON, strategic for built-ins, apply),
 * delete and deletecollection, on objects and on their `status` and `scale` subresources.
 *
 * The pipeline is the apiserver's: decode (prune, default in the request version) → system fields →
 * strategy (`PrepareForCreate`/`PrepareForUpdate`) → validation → conversion to the storage version →
 * store (optimistic concurrency on resourceVersion) → durable → the stored object read back and shown
 * in the request version. An update that changes nothing writes nothing (the resourceVersion stays).
 */
import { KubeError, FieldError, goQuote, isStackOverflow, parseJSON, type KubeObject, type ManagedFieldsEntry } from '@kubekit/core';
import { parse as parseYAML } from 'yaml';
import type { AdmissionAttributes } from './admission.js';
import { deepEqual } from './internal/deepEqual.js';
import { jsonDuplicateFields, yamlDuplicateFields } from './internal/fieldValidation.js';
import { decodeProtobuf, protobufGroups, protobufMediaType } from './internal/protobuf.js';
import { contentType, readBody, sendJSON, warningHeaderValue } from './internal/http.js';
import { getPath, setPath } from './internal/jsonPath.js';
import { apiserverMaxDepth, checkPatchedDepth, goJSONDepthMessage, goYAMLDepthMessage, scanNesting, summarizeData, type DepthExcess } from './internal/nesting.js';
import { isYAMLStackOverflow, parseDeepYAML, yamlIsDeep } from './internal/deepYAML.js';
import { checkMetadataShape, fillSystemFieldsOnCreate, keepSystemFieldsOnUpdate, timestamp } from './objectMeta.js';
import { applyConfiguration, applyJSONPatch, applyMergePatch, applyStrategicMergePatch, appliedFieldPaths, patchTypeOf, type PatchType } from './patch.js';
import { respondObject, type RestRequest } from './restRequest.js';
import { validateWriteOptions, type WriteOptions } from './writeOptions.js';
import type { ResourceType, WriteContext } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { storeKey } from './storage/objectStore.js';
import { cloneJSON } from './internal/own.js';

/** How often an update is retried when the object changes under it. */
export const maxRetries = 16;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function writeContext(ctx: ServerContext, r: RestRequest, options: WriteOptions): WriteContext {
  return { fieldValidation: options.fieldValidation, warnings: [], duplicateFields: [], subresource: r.info.subresource, now: timestamp(ctx.clock.now()) };
}

/** What a body is read for: the object of a create or update, or a patch of a type. */
type BodyUse = 'object' | PatchType;

/**
 * Reads a JSON (or YAML) object body, noting its duplicate fields unless they are ignored. Bodies
 * nested deeper than the apiserver's decoders allow get the apiserver's 400 for the request's kind of
 * body.
 */
async function readObject(ctx: ServerContext, r: RestRequest, wctx: WriteContext, use: BodyUse): Promise<unknown> {
  const body = await readBody(r.req, ctx.limits.maxRequestBodyBytes);
  const ct = contentType(r.req);
  if (ct === protobufMediaType && protobufGroups.includes(r.type.names.group)) return decodeProtobuf(body);
  if (ct !== '' && ct !== 'application/json' && ct !== 'application/yaml' && ct !== 'text/yaml' && patchTypeOf(ct) === undefined) {
    throw new KubeError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`);
  }
  const text = body.toString('utf8');
  const yaml = ct === 'application/yaml' || ct === 'text/yaml' || ct === 'application/apply-patch+yaml';
  const excess = scanNesting(text, apiserverMaxDepth, yaml);
  if (excess !== undefined) throw tooDeep(r, use, yaml, excess, body, wctx);
  if (yaml && !looksLikeJSON(text)) {
    const duplicates = wctx.fieldValidation !== 'Ignore';
    // The YAML parser recurses: deep YAML is parsed on a worker thread with a large stack.
    if (yamlIsDeep(text)) return parsedDeepYAML(text, duplicates, wctx);
    let parsed: unknown;
    try {
      parsed = parseYAML(text, { intAsBigInt: false, version: '1.1', uniqueKeys: false }) as unknown;
    } catch (err) {
      if (isStackOverflow(err) || isYAMLStackOverflow(err)) return parsedDeepYAML(text, duplicates, wctx);
      throw KubeError.badRequest(`error converting YAML to JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (duplicates) wctx.duplicateFields = yamlDuplicateFields(text);
    return parsed;
  }
  if (text.trim() === '') throw KubeError.badRequest('the body of the request was empty');
  const parsed = parseJSON(text);
  if (wctx.fieldValidation !== 'Ignore') wctx.duplicateFields = jsonDuplicateFields(text);
  return parsed;
}

async function parsedDeepYAML(text: string, duplicates: boolean, wctx: WriteContext): Promise<unknown> {
  const { value, duplicateFields } = await parseDeepYAML(text, duplicates);
  if (duplicates) wctx.duplicateFields = duplicateFields;
  return value;
}

/**
 * Whether a YAML body is a JSON object, which the JSON parser reads (YAML is a superset of JSON, and
 * the YAML parser recurses where the JSON parser does not): kubectl and client-go send apply patches
 * as JSON.
 */
function looksLikeJSON(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The apiserver's 400 for a body nested past its decoders' limit, which depends on who decodes it:
 * the object decoder of create and update (`transformDecodeError` in handlers/rest.go), the patch
 * decoders of handlers/patch.go (`applyJSPatch`, `strategicPatchObject`, the apply patcher's YAML).
 */
function tooDeep(r: RestRequest, use: BodyUse, yaml: boolean, excess: DepthExcess, body: Buffer, wctx: WriteContext): KubeError {
  const strict = wctx.fieldValidation !== 'Ignore';
  switch (use) {
    case 'object': {
      const kind = r.info.subresource === 'scale' ? 'Scale' : r.type.names.kind;
      const cause = yaml ? goYAMLDepthMessage(excess) : `couldn't get version/kind; json parse error: ${goJSONDepthMessage(excess)}`;
      return KubeError.badRequest(`the object provided is unrecognized (must be of type ${kind}): ${cause} (${summarizeData(body)})`);
    }
    case 'json': return KubeError.badRequest(strict ? `error decoding patch: ${goJSONDepthMessage(excess)}` : goJSONDepthMessage(excess));
    case 'merge': return KubeError.badRequest(strict ? `error decoding patch: ${goJSONDepthMessage(excess)}` : 'Invalid JSON Patch');
    case 'strategic': return KubeError.badRequest(goJSONDepthMessage(excess));
    case 'apply': return KubeError.badRequest(`error decoding YAML: error converting YAML to JSON: ${goYAMLDepthMessage(excess)}`);
  }
}

function sendWarnings(r: RestRequest, wctx: WriteContext): void {
  for (const w of wctx.warnings) {
    const existing = r.res.getHeader('Warning');
    const value = warningHeaderValue(w);
    r.res.setHeader('Warning', existing === undefined ? value : [...(Array.isArray(existing) ? existing : [String(existing)]), value]);
  }
}

function checkNamespace(ctx: ServerContext, type: ResourceType, obj: KubeObject, namespace: string): void {
  if (!type.names.namespaced) return;
  const own = obj.metadata.namespace ?? '';
  if (own === '') obj.metadata.namespace = namespace;
  else if (namespace !== '' && own !== namespace) {
    throw KubeError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

function checkNamespaceActive(ctx: ServerContext, namespace: string): void {
  const phase = ctx.namespacePhase(namespace);
  if (phase === undefined) throw KubeError.notFound({ group: '', resource: 'namespaces' }, namespace);
  if (phase === 'Terminating') {
    throw new KubeError('Forbidden', `${'unable to create new content in namespace'} ${namespace} because it is being terminated`, {
      details: { causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }] },
    });
  }
}

function admissionAttributes(r: RestRequest, operation: 'CREATE' | 'UPDATE', namespace: string, name: string, dryRun: boolean, wctx: WriteContext): AdmissionAttributes {
  return { type: r.type, operation, namespace, name, subresource: r.info.subresource, dryRun, wctx };
}

function invalid(type: ResourceType, name: string, errs: FieldError[]): KubeError {
  return KubeError.invalid({ group: type.names.group, kind: type.names.kind }, name, errs);
}

/** Create, update or patch, by verb and subresource. */
export async function handleWrite(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  const verb = r.info.verb === 'create' ? 'create' : r.info.verb === 'update' ? 'update' : 'patch';
  const options = validateWriteOptions(r.query, verb, verb === 'patch' ? patchTypeOf(contentType(r.req)) : undefined);
  const { dryRun } = options;
  const wctx = writeContext(ctx, r, options);
  if (r.info.verb === 'create') {
    const body = await readObject(ctx, r, wctx, 'object');
    await create(ctx, r, namespace, body, wctx, dryRun);
    return;
  }
  if (r.info.verb === 'update') {
    const body = await readObject(ctx, r, wctx, 'object');
    const mutate = r.info.subresource === 'scale' ? scaleUpdate(r.type, body) : replaceWith(r, body, wctx);
    await update(ctx, r, namespace, wctx, dryRun, mutate, bodyResourceVersion(body));
    return;
  }
  const pt = patchTypeOf(contentType(r.req));
  if (pt === undefined || (pt === 'strategic' && !r.type.strategicMergePatch)) {
    // The supported patch types in the order the apiserver lists them (endpoints/installer.go; the
    // apiextensions-apiserver's crdHandler for custom resources).
    const accepted = ['application/json-patch+json', 'application/merge-patch+json', ...(r.type.strategicMergePatch ? ['application/strategic-merge-patch+json'] : []), 'application/apply-patch+yaml'];
    throw new KubeError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
  }
  const body = await readObject(ctx, r, wctx, pt);
  if (pt === 'apply') {
    await apply(ctx, r, namespace, body, wctx, dryRun);
    return;
  }
  const mutate = (old: KubeObject): KubeObject => {
    const target = r.info.subresource === 'scale' ? scaleOf(r.type, old) : old;
    const patched = pt === 'json' ? applyJSONPatch(target, body) : pt === 'merge' ? applyMergePatch(target, body) : applyStrategicMergePatch(target, body);
    // A JSON patch can nest deeper than its body (a deep path, copy and move).
    if (pt !== 'strategic') checkPatchedDepth(patched);
    if (r.info.subresource === 'scale') return scaleUpdate(r.type, patched)(old);
    return r.type.decode(patched, wctx);
  };
  const precondition = pt === 'json' ? undefined : bodyResourceVersion(body);
  await update(ctx, r, namespace, wctx, dryRun, mutate, precondition);
}

function bodyResourceVersion(body: unknown): string | undefined {
  if (!isObject(body) || !isObject(body.metadata)) return undefined;
  const rv = body.metadata.resourceVersion;
  return typeof rv === 'string' && rv !== '' ? rv : undefined;
}

function replaceWith(r: RestRequest, body: unknown, wctx: WriteContext): (old: KubeObject) => KubeObject {
  const decoded = r.type.decode(body, wctx);
  if ((decoded.metadata.name ?? '') !== r.info.name) {
    throw KubeError.badRequest(`the name of the object (${decoded.metadata.name ?? ''}) does not match the name on the URL (${r.info.name})`);
  }
  return () => cloneJSON(decoded);
}

async function create(ctx: ServerContext, r: RestRequest, namespace: string, body: unknown, wctx: WriteContext, dryRun: boolean): Promise<void> {
  const { type } = r;
  let obj = type.decode(body, wctx);
  checkNamespace(ctx, type, obj, namespace);
  if (type.names.namespaced) checkNamespaceActive(ctx, obj.metadata.namespace ?? '');
  const attrs = admissionAttributes(r, 'CREATE', obj.metadata.namespace ?? '', obj.metadata.name ?? '', dryRun, wctx);
  obj = (await ctx.admission?.mutate({ ...attrs, object: obj })) ?? obj;
  fillSystemFieldsOnCreate(obj.metadata, wctx.now);
  type.prepareForCreate(obj, wctx);
  const name = obj.metadata.name ?? '';
  const errs = type.validateCreate(obj, wctx);
  if (errs.length > 0) throw invalid(type, name, errs);
  await ctx.admission?.validate({ ...attrs, object: obj });
  const stored = await type.toStorage(obj);
  const key = storeKey(obj.metadata.namespace ?? '', name);
  if (dryRun) {
    if (ctx.store.get(type.bucket, key) !== undefined) throw KubeError.alreadyExists(type.groupResource, name);
    sendWarnings(r, wctx);
    respondObject(ctx, r, 201, await type.fromStorage(stored));
    return;
  }
  const write = ctx.store.create(type.groupResource, key, name, stored);
  await write.durable;
  sendWarnings(r, wctx);
  respondObject(ctx, r, 201, await type.fromStorage(write.event.object));
}

/**
 * The update loop (`GuaranteedUpdate`): read the current object, compute the new one, and store it if
 * nothing changed meanwhile; retried when the request has no resourceVersion precondition.
 */
async function update(ctx: ServerContext, r: RestRequest, namespace: string, wctx: WriteContext, dryRun: boolean,
  mutate: (old: KubeObject) => KubeObject, precondition: string | undefined): Promise<void> {
  const { type, info } = r;
  const key = storeKey(namespace, info.name);
  for (let attempt = 0; ; attempt++) {
    const current = ctx.store.get(type.bucket, key);
    if (current === undefined) throw KubeError.notFound(type.groupResource, info.name);
    const old = await type.fromStorage(current);
    let obj = mutate(old);
    checkNamespace(ctx, type, obj, namespace);
    checkResourceVersion(type, info.name, obj.metadata.resourceVersion);
    checkResourceVersion(type, info.name, precondition);
    const attrs = { ...admissionAttributes(r, 'UPDATE', namespace, info.name, dryRun, wctx), oldObject: old };
    obj = (await ctx.admission?.mutate({ ...attrs, object: obj })) ?? obj;
    if (r.info.verb === 'update' && r.info.subresource !== 'scale') {
      const rv = obj.metadata.resourceVersion ?? '';
      if (rv === '' && !type.allowUnconditionalUpdate) {
        // kube-apiserver 1.34 names the resource (not the kind) here, and prints the zero uint64 as 0.
        throw KubeError.invalid({ group: type.names.group, kind: type.names.resource }, info.name, [new FieldError('FieldValueInvalid', 'metadata.resourceVersion', 0, 'must be specified for an update')]);
      }
    }
    const expected = precondition ?? current.metadata.resourceVersion;
    if (precondition !== undefined && precondition !== current.metadata.resourceVersion) {
      throw KubeError.conflict(type.groupResource, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    keepSystemFieldsOnUpdate(obj.metadata, old.metadata);
    obj.metadata.resourceVersion = current.metadata.resourceVersion;
    type.prepareForUpdate(obj, old, wctx);
    const errs = type.validateUpdate(obj, old, wctx);
    if (errs.length > 0) throw invalid(type, info.name, errs);
    await ctx.admission?.validate({ ...attrs, object: obj });
    const stored = await type.toStorage(obj);
    if (ctx.store.get(type.bucket, key) !== current) {
      if (precondition !== undefined || attempt >= maxRetries) {
        throw KubeError.conflict(type.groupResource, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
      }
      continue;
    }
    const finalized = obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).length === 0 && !(type.deferDeletion?.(obj) ?? false);
    if (dryRun) {
      sendWarnings(r, wctx);
      respondObject(ctx, r, 200, await type.fromStorage(stored));
      return;
    }
    if (finalized) {
      const write = ctx.store.delete(type.groupResource, key, info.name, { rv: expected });
      await write.durable;
      sendWarnings(r, wctx);
      respondObject(ctx, r, 200, await type.fromStorage(stored));
      return;
    }
    if (sameContent(stored, current)) {
      sendWarnings(r, wctx);
      respond(ctx, r, await type.fromStorage(current));
      return;
    }
    const write = ctx.store.update(type.groupResource, key, info.name, stored, expected);
    await write.durable;
    sendWarnings(r, wctx);
    respond(ctx, r, await type.fromStorage(write.event.object));
    return;
  }
}

/** The largest resourceVersion Go's `strconv.ParseUint(rv, 10, 64)` reads. */
const maxUint64 = 18446744073709551615n;

/**
 * Refuses a resourceVersion that is not an unsigned 64-bit decimal, with the text of the parse error
 * (`APIObjectVersioner.ObjectResourceVersion` parses it with `strconv.ParseUint`). The apiserver's
 * generic store returns that parse error unwrapped (registry/store.go `Update`), which its handler
 * turns into a 500; the embedded server answers 422 `Invalid` on `metadata.resourceVersion`, the
 * shape `APIObjectVersioner.ParseResourceVersion` gives the same parse error elsewhere.
 */
function checkResourceVersion(type: ResourceType, name: string, rv: unknown): void {
  if (rv === undefined || rv === '') return;
  const text = typeof rv === 'string' ? rv : String(rv);
  let problem: string | undefined;
  if (!/^[0-9]+$/.test(text)) problem = 'invalid syntax';
  else if (BigInt(text) > maxUint64) problem = 'value out of range';
  if (problem !== undefined) {
    throw invalid(type, name, [new FieldError('FieldValueInvalid', 'metadata.resourceVersion', text, `strconv.ParseUint: parsing ${goQuote(text)}: ${problem}`)]);
  }
}

function respond(ctx: ServerContext, r: RestRequest, view: KubeObject): void {
  if (r.info.subresource === 'scale') sendJSON(r.res, 200, scaleOf(r.type, view));
  else respondObject(ctx, r, 200, view);
}

function sameContent(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined, managedFields: undefined } });
  return deepEqual(strip(a), strip(b));
}

async function apply(ctx: ServerContext, r: RestRequest, namespace: string, body: unknown, wctx: WriteContext, dryRun: boolean): Promise<void> {
  const { type, info } = r;
  const manager = r.query.get('fieldManager') ?? '';
  if (!isObject(body)) throw KubeError.badRequest('error decoding YAML: the applied configuration must be an object');
  const config = body;
  const entry = (paths: string[]): ManagedFieldsEntry => ({
    manager, operation: 'Apply', apiVersion: `${type.names.group === '' ? '' : `${type.names.group}/`}${type.names.version}`,
    time: wctx.now, fieldsType: 'FieldsV1', fieldsV1: encodeFieldsV1(paths),
    ...(info.subresource !== '' ? { subresource: info.subresource } : {}),
  });
  const key = storeKey(namespace, info.name);
  if (info.subresource === 'scale') {
    // The scale subresource applies a Scale: its replicas go to the object's spec replicas path.
    await update(ctx, r, namespace, wctx, dryRun, (old) => scaleUpdate(type, applyConfiguration(scaleOf(type, old), config, []))(old), bodyResourceVersion(body));
    return;
  }
  if (ctx.store.get(type.bucket, key) === undefined) {
    // Subresources never create (StatusREST.Update passes forceAllowCreate=false to the store).
    if (info.subresource !== '') throw KubeError.notFound(type.groupResource, info.name);
    const created = applyConfiguration(undefined, config, []) as KubeObject;
    if (isObject(created.metadata)) created.metadata.managedFields = [entry(appliedFieldPaths(config))];
    await create(ctx, r, namespace, created, wctx, dryRun);
    return;
  }
  await update(ctx, r, namespace, wctx, dryRun, (old) => {
    const mine = (old.metadata.managedFields ?? []).find((m) => m.manager === manager && m.operation === 'Apply' && (m.subresource ?? '') === info.subresource);
    const previous = mine?.fieldsV1 === undefined ? [] : decodeFieldsV1(mine.fieldsV1);
    const merged = applyConfiguration(old, config, previous) as KubeObject;
    const obj = type.decode(merged, wctx);
    const others = (old.metadata.managedFields ?? []).filter((m) => m !== mine);
    obj.metadata.managedFields = [...others, entry(appliedFieldPaths(config))];
    return obj;
  }, bodyResourceVersion(body));
}

function encodeFieldsV1(paths: readonly string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const p of paths) {
    let cur = root;
    for (const part of p.split('.')) {
      const k = `f:${part}`;
      cur[k] ??= {};
      cur = cur[k] as Record<string, unknown>;
    }
  }
  return root;
}

function decodeFieldsV1(fields: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (!k.startsWith('f:')) continue;
    const p = prefix === '' ? k.slice(2) : `${prefix}.${k.slice(2)}`;
    if (isObject(v) && Object.keys(v).some((x) => x.startsWith('f:'))) out.push(...decodeFieldsV1(v, p));
    else out.push(p);
  }
  return out;
}

/** The `autoscaling/v1` Scale of an object with a scale subresource. */
export function scaleOf(type: ResourceType, obj: KubeObject): KubeObject {
  const scale = type.names.scale!;
  const spec = getPath(obj, scale.specReplicasPath);
  const status = getPath(obj, scale.statusReplicasPath);
  const selector = scale.selector !== undefined ? scale.selector(obj) : scale.labelSelectorPath === undefined ? undefined : getPath(obj, scale.labelSelectorPath);
  const m = obj.metadata;
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: typeof spec === 'number' ? spec : 0 },
    status: { replicas: typeof status === 'number' ? status : 0, ...(typeof selector === 'string' ? { selector } : {}) },
  };
}

function scaleUpdate(type: ResourceType, body: unknown): (old: KubeObject) => KubeObject {
  return (old) => {
    const scale = isObject(body) ? body : {};
    const spec = isObject(scale.spec) ? scale.spec : {};
    const replicas = spec.replicas ?? 0;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw KubeError.invalid({ group: 'autoscaling', kind: 'Scale' }, old.metadata.name ?? '', [
        new FieldError('FieldValueInvalid', 'spec.replicas', replicas, 'must be greater than or equal to 0'),
      ]);
    }
    const obj = cloneJSON(old);
    setPath(obj as Record<string, unknown>, type.names.scale!.specReplicasPath, replicas);
    return obj;
  };
}

/** Checks and normalises the decoded body of a write: an object with metadata of the right shape. */
export function decodeObjectShape(body: unknown): KubeObject {
  if (!isObject(body)) throw KubeError.badRequest(`json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type map[string]interface {}`);
  const obj = body as KubeObject;
  checkMetadataShape(obj);
  return obj;
}
