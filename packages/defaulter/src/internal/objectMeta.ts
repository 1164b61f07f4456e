// A model of the apiserver's JSON round trip of metadata through Go's metav1.ObjectMeta
// (objectmeta.GetObjectMetaWithOptions + SetObjectMeta): unknown fields are dropped, values must have
// ObjectMeta's types, empty values are omitted, timestamps are normalised to RFC 3339 UTC seconds.
import { cloneJSON, compareGoStrings, parseRFC3339 } from '@kubekit/core';
import { isObject, setOwn, type JSONObject } from './json.js';

/** The outcome of decoding one metadata value. */
export type ObjectMetaResult =
  | { ok: true; meta: JSONObject; unknownFields: string[] }
  | { ok: false; error: string };

/**
 * A decoded value, or encoding/json's error. `abort` marks an error of a type's own UnmarshalJSON
 * (`metav1.Time`), which ends the decoding at once; a mismatched JSON type is only recorded, the
 * decoding goes on, and the first recorded one is returned at the end unless something aborts.
 */
type Decoded = { ok: true; value: unknown; unknown: string[] } | { ok: false; error: string; abort?: true };

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go's name for the JSON type of a value in `json: cannot unmarshal <type> into ...`. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string': return 'string';
    case 'boolean': return 'bool';
    case 'number': case 'bigint': return 'number';
    default: return 'object';
  }
}

function typeError(v: unknown, field: string, goType: string): { ok: false; error: string } {
  // Go names the number itself only when it does not fit an integer type.
  const what = (typeof v === 'number' || typeof v === 'bigint') && goType === 'int64' ? `number ${String(v)}` : jsonType(v);
  return { ok: false, error: `json: cannot unmarshal ${what} into Go struct field ${field} of type ${goType}` };
}

const ok = (value: unknown, unknown: string[] = []): Decoded => ({ ok: true, value, unknown });

function decodeString(v: unknown, field: string): Decoded {
  if (v === null) return ok('');
  return typeof v === 'string' ? ok(v) : typeError(v, field, 'string');
}

function decodeBool(v: unknown, field: string): Decoded {
  if (v === null) return ok(undefined);
  return typeof v === 'boolean' ? ok(v) : typeError(v, field, 'bool');
}

function decodeInt64(v: unknown, field: string): Decoded {
  if (v === null) return ok(undefined);
  if (typeof v === 'bigint') return v >= int64Min && v <= int64Max ? ok(v) : typeError(v, field, 'int64');
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63) return ok(v);
  return typeError(v, field, 'int64');
}

/**
 * `metav1.Time`: `null` is the zero time (returned as `null`); a string must parse as Go's
 * `time.Parse(time.RFC3339, …)` does (its error words included); the result is printed as
 * `t.UTC().Format(time.RFC3339)`, and Go's zero time as `null`.
 */
function decodeTime(v: unknown, field: string): Decoded {
  if (v === null) return ok(null);
  if (typeof v !== 'string') return { ...typeError(v, field, 'string'), abort: true };
  const t = parseRFC3339(v);
  if (!t.ok) return { ok: false, error: t.error, abort: true };
  return ok(t.zero ? null : t.text);
}

function decodeStringMap(v: unknown, field: string): Decoded {
  if (v === null) return ok(undefined);
  if (!isObject(v)) return typeError(v, field, 'map[string]string');
  const out: JSONObject = {};
  for (const k of Object.keys(v)) {
    const s = decodeString(v[k], field);
    if (!s.ok) return s;
    setOwn(out, k, s.value);
  }
  return ok(Object.keys(out).length === 0 ? undefined : out);
}

function decodeList(v: unknown, field: string, goType: string, item: (x: unknown, i: number) => Decoded): Decoded {
  if (v === null) return ok(undefined);
  if (!Array.isArray(v)) return typeError(v, field, goType);
  const out: unknown[] = [];
  const unknown: string[] = [];
  let recorded: Decoded | undefined;
  for (let i = 0; i < v.length; i++) {
    const d = item(v[i], i);
    if (!d.ok) {
      if (d.abort === true) return d;
      recorded ??= d;
      continue;
    }
    out.push(d.value);
    unknown.push(...d.unknown);
  }
  return recorded ?? ok(out.length === 0 ? undefined : out, unknown);
}

/**
 * How a decoded struct field is written back by the unstructured converter: `omitempty` fields are
 * left out when empty, pointers only when nil, other fields always (with Go's zero value if unset).
 */
type Emit = 'omitempty' | 'pointer' | 'always';

/** One struct field: its JSON name, decoder and how it is written back. */
interface StructField {
  name: string;
  decode: (v: unknown, goField: string) => Decoded;
  emit: Emit;
  /** The value written for an unset `always` field. */
  zero?: unknown;
}

/** Decodes a JSON object into a Go struct with `fields`, reporting unknown keys under `path`. */
/** A Go struct type: its fields, and for each JSON name the field and its Go name for errors (`ObjectMeta.name`). */
interface StructType {
  goType: string;
  fields: readonly StructField[];
  byName: ReadonlyMap<string, readonly [StructField, string]>;
}

function structType(goType: string, fields: readonly StructField[]): StructType {
  const short = goType.replace(/^v1\./, '');
  return { goType, fields, byName: new Map(fields.map((f) => [f.name, [f, `${short}.${f.name}`] as const])) };
}

/** Decodes a JSON object into a Go struct, reporting unknown keys under `path`. */
function decodeStruct(v: unknown, type: StructType, goField: string, path: string): Decoded {
  if (v === null) v = {};
  if (!isObject(v)) return { ok: false, error: `json: cannot unmarshal ${jsonType(v)} into Go ${goField} of type ${type.goType}` };
  const values = new Map<string, unknown>();
  const unknown: string[] = [];
  const failed: [string, Decoded & { ok: false }][] = [];
  for (const k of Object.keys(v)) {
    const entry = type.byName.get(k);
    if (entry === undefined) {
      unknown.push(path === '' ? k : `${path}.${k}`);
      continue;
    }
    const d = entry[0].decode(v[k], entry[1]);
    if (!d.ok) {
      failed.push([k, d]);
      continue;
    }
    values.set(k, d.value);
    if (d.unknown.length > 0) unknown.push(...d.unknown);
  }
  if (failed.length > 0) return decodingError(failed);
  return ok(structOutput(type.fields, values), unknown);
}

/**
 * The error Go returns for a struct whose fields failed: the apiserver marshals the unstructured map
 * (keys sorted) before decoding it, so the first abort in key order, else the first recorded error.
 */
function decodingError(failed: readonly (readonly [string, Decoded & { ok: false }])[]): Decoded {
  const sorted = [...failed].sort(([a], [b]) => compareGoStrings(a, b));
  return (sorted.find(([, d]) => d.abort === true) ?? sorted[0])[1];
}

/** The unstructured form of a decoded struct, in Go field order. */
function structOutput(fields: readonly StructField[], values: ReadonlyMap<string, unknown>): JSONObject {
  const out: JSONObject = {};
  for (const f of fields) {
    const v = values.get(f.name);
    switch (f.emit) {
      case 'omitempty':
        if (v === undefined || v === '' || v === 0 || v === 0n || v === false) continue;
        break;
      case 'pointer':
        if (v === undefined) continue;
        break;
      case 'always':
        if (v === undefined) {
          out[f.name] = f.zero;
          continue;
        }
        break;
    }
    out[f.name] = v;
  }
  return out;
}

/** A `*metav1.Time`: `null` is nil (omitted); a zero time is kept, written as `null`. */
function decodePointerTime(v: unknown, field: string): Decoded {
  if (v === null) return ok(undefined);
  return decodeTime(v, field);
}

const str = (name: string, emit: Emit = 'omitempty'): StructField => ({ name, decode: decodeString, emit, zero: '' });

/** A `types.UID`: a string, named so in errors. */
const uid = (emit: Emit = 'omitempty'): StructField => ({
  name: 'uid', emit, zero: '', decode: (v, f) => (v === null || typeof v === 'string' ? decodeString(v, f) : typeError(v, f, 'types.UID')),
});

const ownerReferenceFields: readonly StructField[] = [
  str('apiVersion', 'always'), str('kind', 'always'), str('name', 'always'), uid('always'),
  { name: 'controller', decode: decodeBool, emit: 'pointer' },
  { name: 'blockOwnerDeletion', decode: decodeBool, emit: 'pointer' },
];

const ownerReferenceType = structType('v1.OwnerReference', ownerReferenceFields);

const managedFieldsEntryFields: readonly StructField[] = [
  str('manager'), str('operation'), str('apiVersion'),
  { name: 'time', decode: decodePointerTime, emit: 'pointer' },
  str('fieldsType'),
  // FieldsV1 keeps its raw JSON, whatever it is.
  { name: 'fieldsV1', decode: (v) => ok(v === null ? undefined : cloneJSON(v)), emit: 'pointer' },
  str('subresource'),
];

const managedFieldsEntryType = structType('v1.ManagedFieldsEntry', managedFieldsEntryFields);

const objectMetaFields: readonly StructField[] = [
  str('name'), str('generateName'), str('namespace'), str('selfLink'), uid(), str('resourceVersion'),
  { name: 'generation', decode: decodeInt64, emit: 'omitempty' },
  // A struct, never empty for the converter: the zero time is written as null.
  { name: 'creationTimestamp', decode: decodeTime, emit: 'always', zero: null },
  { name: 'deletionTimestamp', decode: decodePointerTime, emit: 'pointer' },
  { name: 'deletionGracePeriodSeconds', decode: decodeInt64, emit: 'pointer' },
  { name: 'labels', decode: decodeStringMap, emit: 'omitempty' },
  { name: 'annotations', decode: decodeStringMap, emit: 'omitempty' },
  {
    name: 'ownerReferences', emit: 'omitempty',
    decode: (v, f) => decodeList(v, f, '[]v1.OwnerReference', (x, i) => decodeStruct(x, ownerReferenceType, `struct field ${f}`, `ownerReferences[${i}]`)),
  },
  { name: 'finalizers', emit: 'omitempty', decode: (v, f) => decodeList(v, f, '[]string', (x) => decodeString(x, f)) },
  {
    name: 'managedFields', emit: 'omitempty',
    decode: (v, f) => decodeList(v, f, '[]v1.ManagedFieldsEntry', (x, i) => decodeStruct(x, managedFieldsEntryType, `struct field ${f}`, `managedFields[${i}]`)),
  },
];

const objectMetaType = structType('v1.ObjectMeta', objectMetaFields);

function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string': return 'string';
    case 'boolean': return 'bool';
    case 'bigint': return 'int64';
    case 'number': return Number.isInteger(v) ? 'int64' : 'float64';
    default: return 'map[string]interface {}';
  }
}

/**
 * Decodes `metadata` as the apiserver does and returns its unstructured form, ready to replace the
 * original. With `dropMalformedFields`, fields of the wrong type are dropped one by one instead of
 * failing the whole value (a value that is not an object then still fails).
 */
export function decodeObjectMeta(metadata: unknown, dropMalformedFields: boolean): ObjectMetaResult {
  const whole = decodeStruct(metadata, objectMetaType, 'value', '');
  if (whole.ok) return { ok: true, meta: whole.value as JSONObject, unknownFields: whole.unknown };
  if (!dropMalformedFields) return { ok: false, error: whole.error };
  if (!isObject(metadata)) return { ok: false, error: `invalid metadata: expected object, got ${goTypeName(metadata)}` };
  const values = new Map<string, unknown>();
  const unknown: string[] = [];
  for (const k of Object.keys(metadata)) {
    const entry = objectMetaType.byName.get(k);
    if (entry === undefined) {
      unknown.push(k);
      continue;
    }
    const d = entry[0].decode(metadata[k], entry[1]);
    if (!d.ok) continue;
    values.set(k, d.value);
    unknown.push(...d.unknown);
  }
  return { ok: true, meta: structOutput(objectMetaFields, values), unknownFields: unknown };
}
