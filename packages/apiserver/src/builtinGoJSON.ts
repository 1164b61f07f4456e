/**
 * How kube-apiserver writes a built-in object: it decodes a request into the kind's Go type and stores
 * and answers what encoding/json writes from it. So a member of an `omitempty` field that holds an
 * empty value (`labels: {}`, `finalizers: []`, `generateName: ""`, `paused: false`, `data: {}`) or a
 * `null` is not written, a `null` of a plain string, number or boolean field is its zero value, and an
 * `omitzero` creation timestamp that is `null` is dropped; quantities and times are written in their
 * canonical form (`1000m` → `1`, times in UTC). A patch or an update that only adds such values, or
 * rewrites one in another form, is then no change at all (the same bytes: no new resourceVersion).
 *
 * The facts come from `fixtures/builtin-go-json.json`: every struct reachable from the served kinds,
 * each field's JSON name, its `omitempty`/`omitzero` options and its Go type's shape, read from
 * k8s.io/api v0.34.4 by reflection (`scripts/gen-go-json`).
 *
 * Members the Go type lacks are left as they are (the decoder dropped them already, or reported them);
 * so are values of the wrong JSON type (the decoder refused them before this runs).
 *
 * @see https://pkg.go.dev/encoding/json#Marshal (omitempty, omitzero)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GroupVersionKind } from './builtinSchemas.js';
import { isObject } from './internal/own.js';
import { canonicalQuantity, canonicalTime } from './internal/quantity.js';

const quantityType = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const timeType = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const microTimeType = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';

/** A Go type as encoding/json sees it (see the generator). */
interface Shape {
  k: 'string' | 'int' | 'float' | 'bool' | 'bytes' | 'map' | 'slice' | 'ptr' | 'struct' | 'custom' | 'any';
  e?: Shape;
  n?: string;
}

interface Field {
  omitempty?: boolean;
  omitzero?: boolean;
  type: Shape;
}

interface Fixture {
  kinds: Record<string, string>;
  structs: Record<string, Record<string, Field>>;
}

let loaded: { kinds: Map<string, string>; structs: Map<string, Map<string, Field>> } | undefined;

function fixture(): NonNullable<typeof loaded> {
  if (loaded === undefined) {
    // src/ and dist/ are both one level below the package root, where fixtures/ is.
    const data = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/builtin-go-json.json', import.meta.url)), 'utf8')) as Fixture;
    loaded = {
      kinds: new Map(Object.entries(data.kinds)),
      structs: new Map(Object.entries(data.structs).map(([name, fields]) => [name, new Map(Object.entries(fields))])),
    };
  }
  return loaded;
}

/** Whether the embedded server knows the Go type of a built-in kind. */
export function hasGoType(gvk: GroupVersionKind): boolean {
  return fixture().kinds.has(`${gvk.group}/${gvk.version}/${gvk.kind}`);
}

/**
 * Rewrites `obj`, a built-in kind's object, in place as encoding/json writes it once decoded into the
 * kind's Go type (see the module's description). An unknown kind is left as it is.
 *
 * @example
 * ```ts
 * const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: {} }, data: {} };
 * encodeAsGo(cm, { group: '', version: 'v1', kind: 'ConfigMap' });
 * // cm is { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }
 * ```
 */
export function encodeAsGo(obj: Record<string, unknown>, gvk: GroupVersionKind): void {
  const name = fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  if (name !== undefined) encodeStruct(obj, name);
}

/** The members of a struct's fields, each written as its type is, empty `omitempty` ones dropped. */
function encodeStruct(obj: Record<string, unknown>, name: string): void {
  const fields = fixture().structs.get(name);
  if (fields === undefined) return;
  for (const key of Object.keys(obj)) {
    // A member without a value (left by a JSON patch without one) is no JSON at all.
    if (obj[key] === undefined) {
      delete obj[key];
      continue;
    }
    const field = fields.get(key);
    if (field === undefined) continue;
    const value = encodeValue(obj[key], field.type);
    if ((field.omitempty === true && isEmpty(value, field.type)) || (field.omitzero === true && isZero(value, field.type))) delete obj[key];
    else obj[key] = value;
  }
}

/** A decoded value as encoding/json writes it (`null` where Go holds a nil map, slice or pointer). */
function encodeValue(value: unknown, shape: Shape): unknown {
  switch (shape.k) {
    // Decoding null into a plain value leaves its zero value.
    case 'string': return value === null ? '' : value;
    case 'int':
    case 'float': return value === null ? 0 : value;
    case 'bool': return value === null ? false : value;
    case 'ptr': return value === null ? null : encodeValue(value, shape.e!);
    case 'map':
      if (isObject(value)) {
        for (const k of Object.keys(value)) {
          if (value[k] === undefined) delete value[k];
          else value[k] = encodeValue(value[k], shape.e!);
        }
      }
      return value;
    case 'slice':
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) value[i] = encodeValue(value[i], shape.e!);
      return value;
    case 'struct':
      // A null leaves the struct's zero value, which is written with its members that are not omitempty.
      if (value === null) return zeroStruct(shape.n!);
      if (isObject(value)) encodeStruct(value, shape.n!);
      return value;
    case 'custom':
      // Types with a MarshalJSON of their own: quantities and times are written in canonical form.
      if (shape.n === quantityType) return canonicalQuantity(value) ?? value;
      if (shape.n === timeType) return value === null ? null : canonicalTime(value) ?? value;
      if (shape.n === microTimeType) return value === null ? null : canonicalTime(value, true) ?? value;
      return value;
    default:
      // bytes (base64 text), any.
      return value;
  }
}

/** The JSON encoding/json writes for a struct's zero value. */
function zeroStruct(name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = fixture().structs.get(name);
  if (fields === undefined) return out;
  for (const [key, field] of fields) {
    const zero = zeroValue(field.type);
    if (!((field.omitempty === true && isEmpty(zero, field.type)) || (field.omitzero === true && isZero(zero, field.type)))) out[key] = zero;
  }
  return out;
}

function zeroValue(shape: Shape): unknown {
  switch (shape.k) {
    case 'string': return '';
    case 'int':
    case 'float': return 0;
    case 'bool': return false;
    case 'struct': return zeroStruct(shape.n!);
    // A zero time writes null; the other types with a MarshalJSON of their own are never zero here.
    default: return null;
  }
}

/** encoding/json's `isEmptyValue`: what `omitempty` drops. Structs (and the types with their own MarshalJSON, all structs) are never empty. */
function isEmpty(value: unknown, shape: Shape): boolean {
  switch (shape.k) {
    case 'string': return value === '';
    case 'int':
    case 'float': return value === 0;
    case 'bool': return value === false;
    case 'bytes': return value === null || value === '';
    case 'map': return value === null || (isObject(value) && Object.keys(value).length === 0);
    case 'slice': return value === null || (Array.isArray(value) && value.length === 0);
    case 'ptr':
    case 'any': return value === null;
    default: return false;
  }
}

/** What `omitzero` drops: only the creation timestamp has it in k8s.io/api 1.34 (`Time.IsZero`: written as null). */
function isZero(value: unknown, shape: Shape): boolean {
  return shape.k === 'custom' ? value === null : isEmpty(value, shape);
}
