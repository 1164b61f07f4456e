/**
 * `ObjectMeta` validation as the apiserver applies it to custom resources and embedded resources
 * (k8s.io/apimachinery/pkg/api/validation: `ValidateObjectMeta`, `ValidateObjectMetaUpdate`), with the
 * name checks of k8s.io/apimachinery/pkg/util/validation (from `@kubekit/selectors`) and
 * pkg/api/validate/content's path segment names.
 */
import { forbidden, goSprint, invalid, notSupported, parseRFC3339, required, tooLong } from '@kubekit/core';
import type { FieldError, FieldPath } from '@kubekit/core';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '@kubekit/selectors';
import { byteLength } from './dns.js';
import { goKind } from './valueGo.js';

/** `content.IsPathSegmentName` / `IsPathSegmentPrefix`: the name rule of embedded resources. */
export function isPathSegment(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/** `NameIsDNSSubdomain`: generateName prefixes have a trailing dash masked. */
export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  return isDNS1123Subdomain(prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name);
}

/** A name rule: `(name, isPrefix) => messages`. */
export type NameFn = (name: string, prefix: boolean) => string[];

const goTypeName: Record<string, string> = { string: 'string', bool: 'bool', int: 'number', float: 'number', slice: 'array', map: 'object' };

/** encoding/json's error for a value of the wrong type in a field of ObjectMeta. */
function unmarshalError(field: string, v: unknown, type: string): string {
  const k = goKind(v);
  const what = k === 'float' && type === 'int64' ? `number ${goSprint(v)}` : goTypeName[k];
  return `json: cannot unmarshal ${what} into Go struct field ObjectMeta.${field} of type ${type}`;
}

/** The parts of ObjectMeta that validation reads, decoded leniently. */
export interface Meta {
  raw: Record<string, unknown>;
  name: string;
  generateName: string;
  namespace: string;
  resourceVersion: string;
  uid: string;
  generation: number | bigint;
  labels: [string, string][];
  annotations: [string, string][];
  finalizers: string[];
  ownerReferences: Record<string, unknown>[];
  managedFields: Record<string, unknown>[];
  /** The timestamps as the unstructured accessors read them: Go's RFC 3339 text, or null for none, the zero time or one that does not parse. */
  creationTimestamp: string | null;
  deletionTimestamp: string | null;
  deletionGracePeriodSeconds: unknown;
}

/**
 * A timestamp as `Unstructured.GetCreationTimestamp`/`GetDeletionTimestamp` read it
 * (`metav1.Time.UnmarshalQueryParameter`): a string that parses as RFC 3339, written back as Go writes
 * it; anything else, and Go's zero time, reads as none.
 */
function accessorTime(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = parseRFC3339(v);
  return t.ok && !t.zero ? t.text : null;
}

/**
 * Decodes `metadata` as Go's `json.Unmarshal` into `metav1.ObjectMeta` would, returning the first
 * error in encoding/json's words (`json: cannot unmarshal number into Go struct field
 * ObjectMeta.name of type string`).
 */
export function decodeMeta(raw: unknown): Meta | string {
  if (goKind(raw) !== 'map') {
    const k = goKind(raw);
    if (k === 'nil') return decodeMeta({});
    return `json: cannot unmarshal ${goTypeName[k]} into Go value of type v1.ObjectMeta`;
  }
  const m = raw as Record<string, unknown>;
  const meta: Meta = {
    raw: m, name: '', generateName: '', namespace: '', resourceVersion: '', uid: '', generation: 0,
    labels: [], annotations: [], finalizers: [], ownerReferences: [], managedFields: [],
    creationTimestamp: accessorTime(m.creationTimestamp), deletionTimestamp: accessorTime(m.deletionTimestamp),
    deletionGracePeriodSeconds: m.deletionGracePeriodSeconds ?? null,
  };
  for (const f of ['name', 'generateName', 'namespace', 'resourceVersion', 'uid', 'selfLink'] as const) {
    const v = m[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return unmarshalError(f, v, 'string');
    if (f !== 'selfLink') meta[f] = v;
  }
  for (const f of ['generation', 'deletionGracePeriodSeconds'] as const) {
    const v = m[f];
    if (v !== undefined && v !== null && goKind(v) !== 'int') return unmarshalError(f, v, 'int64');
  }
  if (goKind(m.generation) === 'int') meta.generation = m.generation as number | bigint;
  for (const f of ['creationTimestamp', 'deletionTimestamp'] as const) {
    const v = m[f];
    if (v !== undefined && v !== null && typeof v !== 'string') return `json: cannot unmarshal ${goTypeName[goKind(v)]} into Go value of type string`;
  }
  for (const f of ['labels', 'annotations'] as const) {
    const v = m[f];
    if (v === undefined || v === null) continue;
    if (goKind(v) !== 'map') return unmarshalError(f, v, 'map[string]string');
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x === null) {
        meta[f].push([k, '']);
        continue;
      }
      if (typeof x !== 'string') return unmarshalError(f, x, 'string');
      meta[f].push([k, x]);
    }
  }
  if (m.finalizers !== undefined && m.finalizers !== null) {
    if (!Array.isArray(m.finalizers)) return unmarshalError('finalizers', m.finalizers, '[]string');
    for (const x of m.finalizers) {
      if (x !== null && typeof x !== 'string') return unmarshalError('finalizers', x, 'string');
      meta.finalizers.push(x ?? '');
    }
  }
  for (const f of ['ownerReferences', 'managedFields'] as const) {
    const v = m[f];
    if (v === undefined || v === null) continue;
    const type = f === 'ownerReferences' ? 'v1.OwnerReference' : 'v1.ManagedFieldsEntry';
    if (!Array.isArray(v)) return unmarshalError(f, v, `[]${type}`);
    for (const x of v) {
      if (x !== null && goKind(x) !== 'map') return unmarshalError(f, x, type);
      meta[f].push((x ?? {}) as Record<string, unknown>);
    }
  }
  return meta;
}

function s(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `schema.ParseGroupVersion`. */
export function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) return { group: gv.slice(0, gv.indexOf('/')), version: gv.slice(gv.indexOf('/') + 1) };
  return `unexpected GroupVersion string: ${gv}`;
}

function validateLabels(meta: Meta, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const p = path.child('labels');
  for (const [k, v] of meta.labels) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(p, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(p, v, msg));
  }
  return errs;
}

function validateAnnotations(meta: Meta, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const p = path.child('annotations');
  let size = 0;
  for (const [k, v] of meta.annotations) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(p, k, msg));
    size += byteLength(k) + byteLength(v);
  }
  if (size > 256 * 1024) errs.push(tooLong(p, '', 256 * 1024));
  return errs;
}

function validateOwnerReferences(meta: Meta, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const p = path.child('ownerReferences');
  let firstController = '';
  meta.ownerReferences.forEach((ref, i) => {
    const rp = p.index(i);
    const apiVersion = s(ref.apiVersion);
    const gv = parseGroupVersion(apiVersion);
    if (apiVersion.length === 0) errs.push(required(rp.child('apiVersion'), 'must not be empty'));
    else if (typeof gv === 'string' || gv.version.length === 0) errs.push(invalid(rp.child('apiVersion'), apiVersion, 'must be <group>/<version> or <version>'));
    // apimachinery's validateOwnerReference (1.34) names the list, not the item: `metadata.ownerReferences.name:
    // Invalid value: "": must not be empty` (kube-apiserver 1.34.4, test/differential/hostile.test.ts).
    for (const f of ['kind', 'name', 'uid'] as const) if (s(ref[f]).length === 0) errs.push(invalid(p.child(f), '', 'must not be empty'));
    if (typeof gv !== 'string' && gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
      errs.push(invalid(rp, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const current = `${s(ref.kind)}/${s(ref.name)}`;
      if (firstController !== '') {
        errs.push(invalid(p, meta.ownerReferences, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  });
  return errs;
}

function validateFinalizers(meta: Meta, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const p = path.child('finalizers');
  for (const f of meta.finalizers) for (const msg of isQualifiedName(f)) errs.push(invalid(p, f, msg));
  if (meta.finalizers.includes('orphan') && meta.finalizers.includes('foregroundDeletion')) {
    errs.push(invalid(p, meta.finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function isGoPrint(c: string): boolean {
  return c === ' ' || !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}]/u.test(c);
}

function validateManagedFields(meta: Meta, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  meta.managedFields.forEach((mf, i) => {
    const p = path.child('managedFields').index(i);
    const op = s(mf.operation);
    if (op === '') errs.push(required(p.child('operation'), 'must not be empty'));
    else if (op !== 'Apply' && op !== 'Update') errs.push(notSupported(p.child('operation'), op, ['Apply', 'Update']));
    const ft = s(mf.fieldsType);
    if (ft.length > 0 && ft !== 'FieldsV1') errs.push(invalid(p.child('fieldsType'), ft, 'must be `FieldsV1`'));
    const manager = s(mf.manager);
    if (byteLength(manager) > 128) errs.push(tooLong(p.child('manager'), '', 128));
    let at = 0;
    for (const c of manager) {
      if (!isGoPrint(c)) {
        const cp = c.codePointAt(0)!;
        errs.push(invalid(p.child('manager'), manager, `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${at})`));
      }
      at += byteLength(c);
    }
    if (byteLength(s(mf.subresource)) > 256) errs.push(tooLong(p.child('subresource'), '', 256));
  });
  return errs;
}

function validateCommon(meta: Meta, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (namespaced) {
    if (meta.namespace.length === 0) errs.push(required(path.child('namespace'), ''));
    else for (const msg of isDNS1123Label(meta.namespace)) errs.push(invalid(path.child('namespace'), meta.namespace, msg));
  } else if (meta.namespace.length !== 0) {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  if (BigInt(meta.generation) < 0n) errs.push(invalid(path.child('generation'), meta.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta, path), ...validateAnnotations(meta, path), ...validateOwnerReferences(meta, path));
  errs.push(...validateFinalizers(meta, path), ...validateManagedFields(meta, path));
  return errs;
}

/** `ValidateObjectMeta`: name (or generateName) with `nameFn`, namespace, labels, annotations, … */
export function validateObjectMeta(meta: Meta, namespaced: boolean, nameFn: NameFn, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName.length !== 0) {
    for (const msg of nameFn(meta.generateName, true)) errs.push(invalid(path.child('generateName'), meta.generateName, msg));
  }
  if (meta.name.length === 0) errs.push(required(path.child('name'), 'name or generateName is required'));
  else for (const msg of nameFn(meta.name, false)) errs.push(invalid(path.child('name'), meta.name, msg));
  return [...errs, ...validateCommon(meta, namespaced, path)];
}


/** `ValidateObjectMetaUpdate`: immutable identity fields, resourceVersion, generation, labels, … */
export function validateObjectMetaUpdate(meta: Meta, old: Meta, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp !== null) {
    const extra = [...new Set(meta.finalizers)].filter((f) => !old.finalizers.includes(f)).sort();
    if (extra.length > 0) {
      errs.push(forbidden(path.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`));
    }
  }
  if (meta.resourceVersion.length === 0) errs.push(invalid(path.child('resourceVersion'), '', 'must be specified for an update'));
  if (BigInt(meta.generation) < 0n) errs.push(invalid(path.child('generation'), meta.generation, 'must be greater than or equal to 0'));
  if (BigInt(meta.generation) < BigInt(old.generation)) errs.push(invalid(path.child('generation'), meta.generation, 'must not be decremented'));
  const immutable = (field: string, a: unknown, b: unknown, eq: (x: unknown, y: unknown) => boolean = (x, y) => x === y): void => {
    if (!eq(a, b)) errs.push(invalid(path.child(field), a, 'field is immutable'));
  };
  immutable('name', meta.name, old.name);
  immutable('namespace', meta.namespace, old.namespace);
  immutable('uid', meta.uid, old.uid);
  immutable('creationTimestamp', meta.creationTimestamp, old.creationTimestamp);
  immutable('deletionTimestamp', meta.deletionTimestamp, old.deletionTimestamp);
  immutable('deletionGracePeriodSeconds', meta.deletionGracePeriodSeconds, old.deletionGracePeriodSeconds, (x, y) => x === y || (x !== null && y !== null && BigInt(x as number) === BigInt(y as number)));
  errs.push(...validateLabels(meta, path), ...validateAnnotations(meta, path), ...validateOwnerReferences(meta, path), ...validateManagedFields(meta, path));
  return errs;
}

/** The name the apiserver would generate from `generateName` (its shape; the random suffix is fixed). */
export function generatedName(generateName: string): string {
  return `${generateName.length > 58 ? generateName.slice(0, 58) : generateName}x7k2q`;
}

