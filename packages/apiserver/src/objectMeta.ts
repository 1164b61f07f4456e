/**
 * `metadata` semantics shared by every kind: system fields set on create and kept on update, and the
 * apiserver's `ValidateObjectMeta`/`ValidateObjectMetaUpdate` with its messages.
 *
 * @see https://github.com/kubernetes/apimachinery/blob/master/pkg/api/validation/objectmeta.go
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { FieldError, FieldPath, KubeError, compareGoStrings, forbidden, goQuote, invalid, jsonTypeName, parseRFC3339, pathSegmentErrors, required, type GoTime, type KubeObject, type ObjectMeta } from '@kubekit/core';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, validateLabels } from './internal/semantics.js';
import { isObject } from './internal/own.js';
import { strictIPMessages } from './podWarnings.js';

/**
 * How a kind's names are validated: DNS-1123 subdomains (most kinds), labels (namespaces), DNS-1035 labels
 * (Services), or only as path segments (core/v1 Events, whose strategy validates no metadata: rest.BeforeCreate's
 * `ValidatePathSegmentName`).
 */
export type NameValidation = 'subdomain' | 'label' | 'dns1035' | 'pathSegment' | 'ip';

/** The largest total size of annotations (keys plus values), in bytes. */
export const totalAnnotationSizeLimit = 256 * 1024;

/** The current time as the apiserver writes timestamps: RFC 3339 in seconds, UTC. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const generateNameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** A name from `generateName`: the prefix and five random characters, as the apiserver makes them. */
export function generateName(prefix: string): string {
  const bytes = randomBytes(5);
  let suffix = '';
  for (const b of bytes) suffix += generateNameAlphabet[b % generateNameAlphabet.length];
  const maxPrefix = 63 - 5;
  return (prefix.length > maxPrefix ? prefix.slice(0, maxPrefix) : prefix) + suffix;
}

/**
 * Checks that `metadata` has the shape the apiserver can decode (an object, string maps, string
 * lists, RFC 3339 timestamps), as its JSON decoder into `ObjectMeta` would, and writes the timestamps
 * as `metav1.Time` writes them back (UTC, whole seconds).
 *
 * @throws KubeError (`BadRequest`) naming the bad field, or with Go's `time.Parse` error for a timestamp.
 */
export function checkMetadataShape(obj: KubeObject): void {
  const meta: unknown = obj.metadata;
  if (meta === undefined || meta === null) {
    obj.metadata = {};
    return;
  }
  if (typeof meta !== 'object' || Array.isArray(meta)) throw decodeError('metadata', 'ObjectMeta', meta);
  const m = meta as Record<string, unknown>;
  decodeTimestamps(m);
  // encoding/json records the first mismatched type in the body's order (and goes on).
  for (const f of Object.keys(m)) {
    const err = fieldTypeError(f, m[f]);
    if (err !== undefined) throw err;
  }
  for (const f of Object.keys(m)) if (m[f] === null) delete m[f];
  // The null strings of the maps and the list decode as "".
  for (const f of ['labels', 'annotations']) {
    const map = m[f];
    if (map !== null && typeof map === 'object') for (const k of Object.keys(map)) if ((map as Record<string, unknown>)[k] === null) (map as Record<string, unknown>)[k] = '';
  }
  if (Array.isArray(m.finalizers)) m.finalizers = m.finalizers.map((x: unknown) => x ?? '');
}

/** Checks and normalises the decoded body of a write: an object with metadata of the right shape. */
export function decodeObjectShape(body: unknown): KubeObject {
  if (!isObject(body)) throw KubeError.badRequest(`json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type map[string]interface {}`);
  const obj = body as KubeObject;
  checkMetadataShape(obj);
  return obj;
}

/**
 * `metav1.Time`'s UnmarshalJSON on the timestamps, in the body's order: its error ends the decoding at
 * once (encoding/json only records a mismatched type and goes on), so it is the answer whatever other
 * fields are wrong. A timestamp that parses is kept as Go writes it back.
 */
function decodeTimestamps(m: Record<string, unknown>): void {
  checkMetadataTimestamps(m);
  for (const f of ['creationTimestamp', 'deletionTimestamp']) {
    const v = m[f];
    if (typeof v === 'string') m[f] = (parseRFC3339(v) as GoTime).text;
  }
}

/**
 * Throws the error `metav1.Time`'s UnmarshalJSON gives for the first timestamp of `metadata` (in the
 * body's order) it cannot decode, without changing anything.
 *
 * @throws TimestampDecodeError
 */
export function checkMetadataTimestamps(metadata: Record<string, unknown>): void {
  for (const f of Object.keys(metadata)) {
    if (f !== 'creationTimestamp' && f !== 'deletionTimestamp') continue;
    const v = metadata[f];
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') {
      throw new TimestampDecodeError(decodeError(`metadata.${f}`, 'string', v).message, `json: cannot unmarshal ${jsonTypeName(v)} into Go value of type string`);
    }
    const t = parseRFC3339(v);
    if (!t.ok) throw new TimestampDecodeError(t.error, t.error);
  }
}

/**
 * A metadata timestamp that `metav1.Time` cannot decode (a `BadRequest` in the JSON decoder's words).
 * `converterMessage` is the error of the unstructured converter, which a server-side apply of a built-in
 * kind meets instead (without the struct field).
 */
export class TimestampDecodeError extends KubeError {
  override name = 'TimestampDecodeError';

  constructor(message: string, readonly converterMessage: string) {
    super('BadRequest', message);
  }
}

/**
 * The error of a server-side apply whose built-in object has a timestamp the unstructured converter
 * cannot decode: the field manager's "failed to convert new object", a 500 without a reason
 * (kube-apiserver 1.34.4).
 */
export function applyConversionError(apiVersion: string, kind: string, object: KubeObject, err: TimestampDecodeError): KubeError {
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  const meta = object.metadata as Partial<Record<string, unknown>> | undefined;
  const name = `${typeof meta?.namespace === 'string' ? meta.namespace : ''}/${typeof meta?.name === 'string' ? meta.name : ''}`;
  return new KubeError('Unknown', `failed to convert new object (${name}; ${gv}, Kind=${kind}) to proper version: unable to convert unstructured object to ${gv}, Kind=${kind}: ${err.converterMessage}`);
}

/**
 * Removes the timestamps a custom resource's accessors read as none (`Unstructured.GetCreationTimestamp`
 * and `GetDeletionTimestamp` ignore what does not parse), as a server-side apply of one leaves them to
 * BeforeCreate and BeforeUpdate.
 */
export function dropMalformedTimestamps(object: KubeObject): void {
  const meta: unknown = object.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return;
  const m = meta as Record<string, unknown>;
  for (const f of ['creationTimestamp', 'deletionTimestamp']) {
    if (!Object.hasOwn(m, f)) continue;
    const v = m[f];
    if (v !== null && (typeof v !== 'string' || !parseRFC3339(v).ok)) delete m[f];
  }
}

/** The decoder's error for an ObjectMeta field of the wrong JSON type, if it is one. */
function fieldTypeError(f: string, v: unknown): KubeError | undefined {
  if (v === undefined || v === null) return undefined;
  switch (f) {
    case 'name': case 'generateName': case 'namespace': case 'resourceVersion': case 'selfLink':
      return typeof v === 'string' ? undefined : decodeError(`metadata.${f}`, 'string', v);
    case 'uid':
      return typeof v === 'string' ? undefined : decodeError('metadata.uid', 'types.UID', v);
    case 'labels': case 'annotations':
      // A null value is the string's zero value, "" (encoding/json), not an error.
      if (typeof v !== 'object' || Array.isArray(v)) return decodeError(`metadata.${f}`, 'map[string]string', v);
      for (const x of Object.values(v)) if (x !== null && typeof x !== 'string') return decodeError(`metadata.${f}`, 'string', x);
      return undefined;
    case 'finalizers':
      if (!Array.isArray(v)) return decodeError('metadata.finalizers', '[]string', v);
      for (const x of v) if (x !== null && typeof x !== 'string') return decodeError('metadata.finalizers', 'string', x);
      return undefined;
    case 'ownerReferences':
      return Array.isArray(v) ? undefined : decodeError('metadata.ownerReferences', '[]v1.OwnerReference', v);
    case 'generation':
      return typeof v === 'number' || typeof v === 'bigint' ? undefined : decodeError('metadata.generation', 'int64', v);
    default:
      return undefined;
  }
}

/**
 * Whether `err` is the JSON decoder's (`json: cannot unmarshal …`, or a timestamp's `parsing time …`):
 * the codec names the kind on a create or update, a patch answers it as a 422 on `patch`.
 */
export function isDecodeError(err: unknown): err is KubeError {
  return err instanceof KubeError && err.reason === 'BadRequest' && (err.message.startsWith('json: cannot unmarshal') || err.message.startsWith('parsing time '));
}

function decodeError(field: string, goType: string, value: unknown): KubeError {
  return KubeError.badRequest(`json: cannot unmarshal ${jsonTypeName(value)} into Go struct field ObjectMeta.${field} of type ${goType}`);
}

/**
 * Sets the system fields of a new object (`rest.BeforeCreate`): uid, creationTimestamp, a name from
 * `generateName`; clears deletion fields and the resourceVersion.
 */
/**
 * rest.WipeObjectMetaSystemFields, which handlers/create.go runs on a created object before the field
 * manager and admission see it: no creationTimestamp, uid, deletionTimestamp, deletionGracePeriodSeconds
 * or selfLink.
 */
export function wipeSystemFields(meta: ObjectMeta): void {
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/**
 * The system fields of an object being created: a generated name, a new uid and the creation time. A `PUT`
 * that creates (`putCreate`) keeps the deletion fields it sent: the update handler does not wipe them as the
 * create handler does (rest.WipeObjectMetaSystemFields), and the store's create path only fills the uid and
 * time (rest.FillObjectMetaSystemFields).
 */
export function fillSystemFieldsOnCreate(meta: ObjectMeta, now: string, putCreate = false, nameGenerator: (prefix: string) => string = generateName): void {
  if ((meta.name ?? '') === '' && (meta.generateName ?? '') !== '') meta.name = nameGenerator(meta.generateName!);
  meta.uid = randomUUID();
  meta.creationTimestamp = now;
  delete meta.resourceVersion;
  if (!putCreate) {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  delete meta.selfLink;
}

/**
 * Keeps what an update may not change (`rest.BeforeUpdate`): generation (the strategy decides it), uid
 * when absent, creationTimestamp, and the deletionTimestamp and deletionGracePeriodSeconds of an
 * object being deleted (one that is not keeps what the update sets, which validation refuses).
 */
export function keepSystemFieldsOnUpdate(meta: ObjectMeta, old: ObjectMeta): void {
  if (old.generation !== undefined) meta.generation = old.generation;
  else delete meta.generation;
  if ((meta.uid ?? '') === '') meta.uid = old.uid;
  if (old.creationTimestamp !== undefined) meta.creationTimestamp = old.creationTimestamp;
  // A deletionTimestamp the object did not have stays, for validation to refuse as immutable.
  if (old.deletionTimestamp !== undefined) meta.deletionTimestamp = old.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  }
  delete meta.selfLink;
}

/**
 * `ResetObjectMetaForStatus`: a `/status` write keeps the old object's deletionTimestamp, generation,
 * labels, annotations, finalizers and ownerReferences (for the status strategies that call it).
 */
export function resetObjectMetaForStatus(meta: ObjectMeta, old: ObjectMeta): void {
  for (const k of ['deletionTimestamp', 'generation', 'labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
    if (old[k] === undefined) delete meta[k];
    else (meta as Record<string, unknown>)[k] = old[k];
  }
}

/**
 * The store's key functions (`NamespaceKeyFunc`, `NoNamespaceKeyFunc`) on the name of a request: one that is not
 * a path segment name (`.`, `..`, with `/` or `%`) is their 400, before the store reads anything.
 * @throws KubeError `Name parameter invalid: "..": may not be '..'`
 */
export function checkKeyName(name: string): void {
  const errs = pathSegmentErrors(name, false);
  if (errs.length > 0) throw KubeError.badRequest(`Name parameter invalid: ${goQuote(name)}: ${errs.join(';')}`);
}

/** `IsValidPathSegmentName` (or, for a prefix, `IsValidPathSegmentPrefix`): core's, which clients check names with too. */
export { pathSegmentErrors };

/**
 * A kind's own `ValidateNameFunc`, in place of a {@link NameValidation} (an APIService's name must be
 * `<version>.<group>`): the messages for a name, or a generateName prefix (`prefix` true).
 */
export type NameValidator = (name: string, prefix: boolean) => string[];

function nameErrors(name: string, how: NameValidation | NameValidator, prefix: boolean): string[] {
  if (typeof how === 'function') return how(name, prefix);
  if (how === 'pathSegment') return pathSegmentErrors(name, prefix);
  // ValidateIPAddressName: a prefix is checked as a whole address (IPAddresses take generateName as it is).
  if (how === 'ip') return strictIPMessages(name);
  // A generateName prefix may end in a dash: it is validated without it (`maskTrailingDash`).
  const value = prefix && name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
  return how === 'label' ? isDNS1123Label(value) : how === 'dns1035' ? isDNS1035Label(value) : isDNS1123Subdomain(value);
}

/**
 * `ValidateObjectMeta` for a new object (with `core` false, apimachinery's `ValidateObjectMetaAccessor`,
 * without the core kinds' finalizer name rule).
 */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, how: NameValidation | NameValidator, core = true): FieldError[] {
  const p = FieldPath.root('metadata');
  const errs: FieldError[] = [];
  if ((meta.generateName ?? '') !== '') {
    for (const msg of nameErrors(meta.generateName!, how, true)) errs.push(invalid(p.child('generateName'), meta.generateName, msg));
  }
  if ((meta.name ?? '') === '') errs.push(required(p.child('name'), 'name or generateName is required'));
  else for (const msg of nameErrors(meta.name!, how, false)) errs.push(invalid(p.child('name'), meta.name, msg));
  if (namespaced) {
    if ((meta.namespace ?? '') === '') errs.push(required(p.child('namespace'), ''));
    else for (const msg of isDNS1123Label(meta.namespace!)) errs.push(invalid(p.child('namespace'), meta.namespace, msg));
  } else if ((meta.namespace ?? '') !== '') {
    errs.push(forbidden(p.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateCommon(meta, p, 'meta', core));
  return errs;
}

/**
 * The metadata errors of an update, as often as the apiserver reports them: rest.BeforeUpdate's
 * `validateCommonFields` runs apimachinery's ValidateObjectMetaAccessor and ValidateObjectMetaAccessorUpdate,
 * then the kind's strategy runs the core ValidateObjectMetaUpdate and, for some kinds (`alsoMeta`: the
 * ConfigMap, Secret and Namespace validations), ValidateObjectMeta of the new object again. The same
 * label error is so in the answer's causes up to four times (the message lists it once).
 */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, alsoMeta = false, strategyMeta = true): FieldError[] {
  const p = FieldPath.root('metadata');
  return [
    ...validateCommon(meta, p, 'meta', false),
    ...metaUpdate(meta, old, p, false),
    // The strategy's own ValidateObjectMetaUpdate (not a core/v1 Event's).
    ...(strategyMeta ? metaUpdate(meta, old, p, true) : []),
    ...(alsoMeta ? validateCommon(meta, p, 'meta', true) : []),
  ];
}

/**
 * apimachinery's `ValidateObjectMetaUpdate` (without the core kinds' finalizer name rule), which a kind
 * outside pkg/apis runs in its own update validation (an APIService's).
 */
export function validateGenericObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  return metaUpdate(meta, old, FieldPath.root('metadata'), false);
}

/**
 * The core `ValidateObjectMetaUpdate` a kind's strategy runs itself, without rest.BeforeUpdate's generic
 * checks: for a kind whose own errors come in an order of their own (events.k8s.io Events).
 */
export function validateStrategyObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  return metaUpdate(meta, old, FieldPath.root('metadata'), true);
}

/** ValidateObjectMetaAccessorUpdate (apimachinery), and with `core` the core kinds' finalizer name rule. */
function metaUpdate(meta: ObjectMeta, old: ObjectMeta, p: FieldPath, core: boolean): FieldError[] {
  const errs: FieldError[] = [];
  // ValidateNoNewFinalizers: an object being deleted takes no new finalizer (they are named sorted, as
  // `%#v` prints a sets.String's List()).
  if (old.deletionTimestamp !== undefined) {
    const before = new Set(Array.isArray(old.finalizers) ? old.finalizers : []);
    const extra = [...new Set((Array.isArray(meta.finalizers) ? meta.finalizers : []).filter((f) => !before.has(f)))].sort(compareGoStrings);
    if (extra.length > 0) {
      errs.push(forbidden(p.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => goQuote(String(f))).join(', ')}}`));
    }
  }
  const immutable = (field: 'name' | 'namespace' | 'uid' | 'creationTimestamp'): void => {
    if ((meta[field] ?? '') !== (old[field] ?? '')) errs.push(invalid(p.child(field), meta[field] ?? '', 'field is immutable'));
  };
  immutable('name');
  immutable('namespace');
  immutable('uid');
  immutable('creationTimestamp');
  // Pointers: set on one side only is a change. Go's zero time is written as null.
  const deleted = meta.deletionTimestamp;
  if (deleted !== old.deletionTimestamp) {
    const t = deleted === undefined ? undefined : parseRFC3339(deleted);
    errs.push(invalid(p.child('deletionTimestamp'), t === undefined ? null : t.ok && t.zero ? null : deleted, 'field is immutable'));
  }
  const grace = meta.deletionGracePeriodSeconds;
  if (String(grace) !== String(old.deletionGracePeriodSeconds)) {
    errs.push(invalid(p.child('deletionGracePeriodSeconds'), grace ?? null, 'field is immutable'));
  }
  errs.push(...validateCommon(meta, p, 'update', core));
  return errs;
}

/**
 * The rules ValidateObjectMetaAccessor (`meta`) and ValidateObjectMetaAccessorUpdate (`update`) share,
 * and ValidateObjectMetaAccessor's own (generation, finalizer names); with `core`, validateKubeFinalizerName
 * of pkg/apis/core/validation: a finalizer without a `/` must be a standard one.
 */
function validateCommon(meta: ObjectMeta, p: FieldPath, which: 'meta' | 'update' = 'meta', core = true): FieldError[] {
  const errs: FieldError[] = [];
  const gen = meta.generation;
  if (which === 'meta' && gen !== undefined && Number(gen) < 0) errs.push(invalid(p.child('generation'), gen, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, p.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, p.child('annotations')));
  errs.push(...validateOwnerReferences((meta.ownerReferences ?? []) as unknown as Record<string, unknown>[], p.child('ownerReferences')));
  if (which === 'meta') for (const f of meta.finalizers ?? []) for (const msg of isQualifiedName(f)) errs.push(invalid(p.child('finalizers'), f, msg));
  if (core) {
    (meta.finalizers ?? []).forEach((f, i) => {
      if (!f.includes('/') && !standardFinalizers.includes(f)) errs.push(invalid(p.child('finalizers').index(i), f, 'name is neither a standard finalizer name nor is it fully qualified'));
    });
  }
  return errs;
}

/** `IsStandardFinalizerName` of pkg/apis/core/helper. */
export const standardFinalizers = ['kubernetes', 'orphan', 'foregroundDeletion'];

/** `ValidateAnnotations`: qualified-name keys and a total size limit. */
export function validateAnnotations(annotations: Record<string, string> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations === undefined) return errs;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(p, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > totalAnnotationSizeLimit) {
    errs.push(new FieldError('FieldValueTooLong', p, '', `may not be more than ${totalAnnotationSizeLimit} bytes`));
  }
  return errs;
}

function validateOwnerReferences(refs: readonly Record<string, unknown>[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    const version = apiVersion.includes('/') ? apiVersion.split('/')[1] : apiVersion;
    if (version === '') errs.push(invalid(p.child('apiVersion'), apiVersion, 'version must not be empty'));
    for (const f of ['kind', 'name', 'uid'] as const) {
      const v = typeof ref[f] === 'string' ? ref[f] as string : '';
      if (v === '') errs.push(invalid(p.child(f), v, 'must not be empty'));
    }
    if (ref.controller === true) {
      const name = `${String(ref.kind ?? '')}/${String(ref.name ?? '')}`;
      if (firstController !== '') {
        errs.push(invalid(p, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`));
      } else {
        firstController = name;
      }
    }
  }
  return errs;
}
