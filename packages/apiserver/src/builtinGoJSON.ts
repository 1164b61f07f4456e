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
import { canonicalQuantity, goJSON, goJSONString, jsonTypeName, parseRFC3339, quantityError } from '@kubekit/core';
import { cloneJSONWith, isObject } from './internal/own.js';
import { RawText, floatOverflowIn, goJSONWithTexts, numberLiteralIn, type WrittenTexts } from './internal/rawJSON.js';
import { goFoldASCIIName, goJSONSyntaxError } from './internal/goJSON.js';
import { canonicalTime } from './internal/goTimes.js';
import { goMapKeys, inGoMapOrder } from './internal/goMapKeys.js';

const quantityType = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const timeType = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const microTimeType = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
const intOrStringType = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const rawExtensionType = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
const schemaPackage = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
/** The CRD schema types that hold schemas (`items`, `additionalProperties`, `dependencies`). */
const nestedSchemaTypes = new Set(['JSONSchemaPropsOrArray', 'JSONSchemaPropsOrBool', 'JSONSchemaPropsOrStringArray'].map((t) => schemaPackage + t));

/** A Go type as encoding/json sees it (see the generator). */
interface Shape {
  k: 'string' | 'int' | 'float' | 'bool' | 'bytes' | 'map' | 'slice' | 'ptr' | 'struct' | 'custom' | 'any';
  e?: Shape;
  n?: string;
  /** The Go type's name as encoding/json's errors print it (`[]v1.Container`, `types.UID`, `int32`). */
  g: string;
  /** An integer's size in bits, and whether it is unsigned. */
  b?: number;
  u?: boolean;
}

interface Field {
  omitempty?: boolean;
  omitzero?: boolean;
  type: Shape;
}

interface Fixture {
  kinds: Record<string, string>;
  structs: Record<string, Record<string, Field>>;
  /** Each struct's members in declaration order (inline members where they are embedded). */
  order: Record<string, string[]>;
}

let loaded: { kinds: Map<string, string>; structs: Map<string, Map<string, Field>>; order: Map<string, string[]> } | undefined;

function fixture(): NonNullable<typeof loaded> {
  if (loaded === undefined) {
    // src/ and dist/ are both one level below the package root, where fixtures/ is.
    const data = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/builtin-go-json.json', import.meta.url)), 'utf8')) as Fixture;
    loaded = {
      kinds: new Map(Object.entries(data.kinds)),
      structs: new Map(Object.entries(data.structs).map(([name, fields]) => [name, new Map(Object.entries(fields))])),
      order: new Map(Object.entries(data.order)),
    };
    for (const [name, fields] of Object.entries(internalStructs)) {
      loaded.structs.set(name, new Map(Object.entries(fields)));
      loaded.order.set(name, Object.keys(fields));
    }
  }
  return loaded;
}

const int32Pointer: Shape = { k: 'ptr', e: { k: 'int', g: 'int32', b: 32 }, g: '*int32' };

/**
 * Go types of kube-apiserver's internal API that it writes into annotations with encoding/json, which the
 * fixture (k8s.io/api's types) lacks: without json tags, their members are their Go field names, none
 * `omitempty` (the behavior of an autoscaling/v1 HorizontalPodAutoscaler, pkg/apis/autoscaling/types.go).
 */
const internalStructs: Record<string, Record<string, Field>> = {
  'internal.autoscaling.HorizontalPodAutoscalerBehavior': {
    ScaleUp: { type: { k: 'ptr', e: { k: 'struct', n: 'internal.autoscaling.HPAScalingRules', g: 'autoscaling.HPAScalingRules' }, g: '*autoscaling.HPAScalingRules' } },
    ScaleDown: { type: { k: 'ptr', e: { k: 'struct', n: 'internal.autoscaling.HPAScalingRules', g: 'autoscaling.HPAScalingRules' }, g: '*autoscaling.HPAScalingRules' } },
  },
  'internal.autoscaling.HPAScalingRules': {
    StabilizationWindowSeconds: { type: int32Pointer },
    SelectPolicy: { type: { k: 'ptr', e: { k: 'string', g: 'autoscaling.ScalingPolicySelect' }, g: '*autoscaling.ScalingPolicySelect' } },
    Policies: { type: { k: 'slice', e: { k: 'struct', n: 'internal.autoscaling.HPAScalingPolicy', g: 'autoscaling.HPAScalingPolicy' }, g: '[]autoscaling.HPAScalingPolicy' } },
    Tolerance: { type: { k: 'ptr', e: { k: 'custom', n: quantityType, g: 'resource.Quantity' }, g: '*resource.Quantity' } },
  },
  'internal.autoscaling.HPAScalingPolicy': {
    Type: { type: { k: 'string', g: 'autoscaling.HPAScalingPolicyType' } },
    Value: { type: { k: 'int', g: 'int32', b: 32 } },
    PeriodSeconds: { type: { k: 'int', g: 'int32', b: 32 } },
  },
};

/** The Go struct (its component name) a built-in kind decodes into, or `undefined`. */
export function goKindStruct(gvk: GroupVersionKind): string | undefined {
  return fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
}

/**
 * Whether the Go struct `struct` has the JSON member `field`, and the struct its value decodes into (for a
 * list, each element; through pointers): what strategicpatch's `LookupPatchMetadataForStruct` finds.
 */
export function goMemberStruct(struct: string, field: string): { known: boolean; struct?: string; map?: boolean } {
  const member = fixture().structs.get(struct)?.get(field);
  if (member === undefined) return { known: false };
  let shape: Shape | undefined = member.type;
  for (let i = 0; i < 4 && shape !== undefined && (shape.k === 'ptr' || shape.k === 'slice'); i++) shape = shape.e;
  return { known: true, struct: shape?.k === 'struct' ? shape.n : undefined, map: shape?.k === 'map' };
}

/**
 * A built-in object's merge patch result as json-patch's `MergePatch` writes it, or `undefined` for a kind
 * without a Go type here: the members of every object the patch reaches re-marshalled in sorted order,
 * every other value kept as the text the apiserver encoded from the Go type (a struct's members in
 * declaration order, a map's sorted).
 */
export function mergePatchedTextAsGo(patched: unknown, patch: unknown, gvk: GroupVersionKind, texts?: WrittenTexts): string | undefined {
  const name = fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  return name === undefined ? undefined : patchedText(patched, patch, { k: 'struct', n: name, g: '' }, texts);
}

/**
 * A built-in object as the apiserver encodes it (struct members in declaration order, maps sorted), or
 * `undefined` for a kind without a Go type here. `obj` holds what the Go type holds (it was decoded and
 * encoded as Go): only the order is the encoder's.
 */
export function encodedTextAsGo(obj: unknown, gvk: GroupVersionKind): string | undefined {
  const name = fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  return name === undefined ? undefined : keptText(obj, { k: 'struct', n: name, g: '' });
}

function derefShape(shape: Shape | undefined): Shape | undefined {
  let s = shape;
  for (let i = 0; i < 4 && s?.k === 'ptr'; i++) s = s.e;
  return s;
}

function memberShape(shape: Shape | undefined, key: string): Shape | undefined {
  const s = derefShape(shape);
  if (s?.k === 'struct' && s.n !== undefined) return fixture().structs.get(s.n)?.get(key)?.type;
  return s?.k === 'map' ? s.e : undefined;
}

function patchedText(value: unknown, patch: unknown, shape: Shape | undefined, texts: WrittenTexts | undefined): string {
  if (isObject(value) && isObject(patch)) {
    const keys = goMapKeys(value).filter((k) => value[k] !== undefined);
    return `{${keys.map((k) => `${goJSONString(k)}:${texts?.compactedAt(value, k) ?? patchedText(value[k], Object.hasOwn(patch, k) ? patch[k] : undefined, memberShape(shape, k), texts)}`).join(',')}}`;
  }
  // A list the patch placed: MergePatch parsed every object in it (pruneNulls), so all are written sorted at
  // any depth, the scalars as the patch wrote them.
  if (Array.isArray(patch)) return texts === undefined ? goJSON(value) : goJSONWithTexts(value, texts);
  return keptText(value, shape, texts);
}

function keptText(value: unknown, shape: Shape | undefined, texts?: WrittenTexts): string {
  const s = derefShape(shape);
  if (Array.isArray(value)) return `[${value.map((v, i) => texts?.compactedAt(value, i) ?? keptText(v, s?.k === 'slice' ? s.e : undefined, texts)).join(',')}]`;
  if (!isObject(value)) return goJSON(value);
  let keys = Object.keys(value).filter((k) => value[k] !== undefined);
  if (s?.k === 'struct' && s.n !== undefined) {
    const declared = fixture().order.get(s.n) ?? [];
    const rank = new Map(declared.map((k, i) => [k, i]));
    keys = [...keys.filter((k) => rank.has(k)).sort((a, b) => rank.get(a)! - rank.get(b)!), ...goMapKeys(Object.fromEntries(keys.filter((k) => !rank.has(k)).map((k) => [k, true])))];
  } else {
    keys = goMapKeys(Object.fromEntries(keys.map((k) => [k, true])));
  }
  return `{${keys.map((k) => `${goJSONString(k)}:${texts?.compactedAt(value, k) ?? keptText(value[k], memberShape(s, k), texts)}`).join(',')}}`;
}

/** A Go struct of the fixture by its component name (`io.k8s.api.autoscaling.v1.MetricSpec`), or a slice of it. */
export interface GoStructType {
  struct: string;
  /** A `[]struct` rather than the struct. @defaultValue false */
  list?: boolean;
}

function shapeOfType(t: GoStructType): Shape {
  const struct: Shape = { k: 'struct', n: t.struct, g: '' };
  return t.list === true ? { k: 'slice', e: struct, g: '' } : struct;
}

/**
 * encoding/json's `Marshal` of `value` held in a Go type of the fixture: members in declaration order,
 * empty `omitempty` ones left out, absent plain ones written as their zero value, quantities and times
 * canonical. What the apiserver writes into annotations from typed values (an autoscaling/v1
 * HorizontalPodAutoscaler's `autoscaling.alpha.kubernetes.io/metrics`).
 */
export function marshalAsGo(value: unknown, type: GoStructType): string {
  const shape = shapeOfType(type);
  return keptText(encodeValue(structuredClone(value), shape), shape);
}

/**
 * encoding/json's `Unmarshal` of `text` into a new value of a Go type of the fixture, or `undefined` when
 * it returns an error (a syntax error, a value of the wrong JSON type, an integer `strconv.ParseInt` does
 * not read or that overflows its field, a quantity or time that does not parse): keys match the fields
 * exactly or case-folded, unknown members are skipped, a later member decodes into what an earlier one
 * left (structs merge), `null` leaves a value as it is (and clears a pointer, slice or map). The value is
 * returned as {@link marshalAsGo} would read it.
 */
export function unmarshalAsGo(text: string, type: GoStructType): unknown {
  if (goJSONSyntaxError(text) !== undefined) return undefined;
  const raw = new RawText(text);
  const decoded = decodeRaw(raw, raw.skipSpace(0), shapeOfType(type), undefined);
  return decoded.ok ? encodeValue(decoded.value, shapeOfType(type)) : undefined;
}

/** One decoded value, or the decode's failure. */
type Decoded = { ok: true; value: unknown } | { ok: false };

const failed: Decoded = { ok: false };

/** Decodes the JSON value at `at` into a Go value of `shape` that holds `into` (undefined: its zero). */
function decodeRaw(raw: RawText, at: number, shape: Shape, into: unknown): Decoded {
  const text = raw.text.slice(at, raw.valueEnd(at));
  if (text === 'null') {
    const nils = shape.k === 'ptr' || shape.k === 'slice' || shape.k === 'map' || shape.k === 'any' || shape.k === 'bytes';
    return { ok: true, value: nils ? null : into ?? (shape.k === 'custom' && shape.n === quantityType ? '0' : into) };
  }
  const c = text[0];
  switch (shape.k) {
    case 'ptr':
      return decodeRaw(raw, at, shape.e!, into === null ? undefined : into);
    case 'string':
      return c === '"' ? { ok: true, value: JSON.parse(text) as string } : failed;
    case 'bool':
      return c === 't' || c === 'f' ? { ok: true, value: text === 'true' } : failed;
    case 'int': {
      if (!/^-?\d+$/.test(text)) return failed;
      const n = BigInt(text);
      if (!fitsInteger(n, shape)) return failed;
      return { ok: true, value: Number(n) };
    }
    case 'float':
      return c === '-' || (c >= '0' && c <= '9') ? { ok: true, value: Number(text) } : failed;
    case 'slice': {
      if (c !== '[') return failed;
      const out: unknown[] = [];
      for (const [s] of raw.elements(at)) {
        const item = decodeRaw(raw, s, shape.e!, undefined);
        if (!item.ok) return failed;
        out.push(item.value);
      }
      return { ok: true, value: out };
    }
    case 'map': {
      if (c !== '{') return failed;
      const out: Record<string, unknown> = isObject(into) ? into : Object.create(null) as Record<string, unknown>;
      for (const [key, s] of raw.memberList(at)) {
        const item = decodeRaw(raw, s, shape.e!, Object.hasOwn(out, key) ? out[key] : undefined);
        if (!item.ok) return failed;
        Object.defineProperty(out, key, { value: item.value, enumerable: true, writable: true, configurable: true });
      }
      return { ok: true, value: { ...out } };
    }
    case 'struct': {
      if (c !== '{') return failed;
      const fields = fixture().structs.get(shape.n!) ?? new Map<string, Field>();
      const folded = new Map([...fields.keys()].map((k) => [goFoldASCIIName(k), k]));
      const out: Record<string, unknown> = isObject(into) ? into : {};
      for (const [key, s] of raw.memberList(at)) {
        const name = fields.has(key) ? key : folded.get(goFoldASCIIName(key));
        if (name === undefined) continue;
        const item = decodeRaw(raw, s, fields.get(name)!.type, Object.hasOwn(out, name) ? out[name] : undefined);
        if (!item.ok) return failed;
        out[name] = item.value;
      }
      return { ok: true, value: out };
    }
    case 'custom': {
      const value: unknown = JSON.parse(text);
      if (shape.n === quantityType) return quantityError(value) === undefined ? { ok: true, value } : failed;
      if (shape.n === timeType || shape.n === microTimeType) return typeof value === 'string' && parseRFC3339(value).ok ? { ok: true, value } : failed;
      return { ok: true, value };
    }
    default:
      return { ok: true, value: JSON.parse(text) as unknown };
  }
}

/** Whether the embedded server knows the Go type of a built-in kind. */
export function hasGoType(gvk: GroupVersionKind): boolean {
  return fixture().kinds.has(`${gvk.group}/${gvk.version}/${gvk.kind}`);
}

/**
 * Rewrites `obj`, a built-in kind's object, in place as encoding/json writes it once decoded into the
 * kind's Go type (see the module's description). An unknown kind is left as it is. `viaMap`: the object is
 * a strategic merge patch's or an apply's result, which the apiserver converts from a Go map, so a
 * `runtime.RawExtension` in it (a ControllerRevision's data, a DRA configuration's opaque parameters) holds
 * that map's JSON, its members sorted, not the text they were written as.
 *
 * @example
 * ```ts
 * const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: {} }, data: {} };
 * encodeAsGo(cm, { group: '', version: 'v1', kind: 'ConfigMap' });
 * // cm is { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }
 * ```
 */
export function encodeAsGo(obj: Record<string, unknown>, gvk: GroupVersionKind, viaMap = false): void {
  const name = fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  if (name !== undefined) encodeStruct(obj, name, viaMap);
}

/** The members of a struct's fields, each written as its type is, empty `omitempty` ones dropped. */
function encodeStruct(obj: Record<string, unknown>, name: string, viaMap = false): void {
  const fields = fixture().structs.get(name);
  if (fields === undefined) return;
  for (const key of Object.keys(obj)) {
    const field = fields.get(key);
    if (field === undefined) continue;
    // A pointer is empty when it is nil, whatever it points to (a zero time it points to writes null).
    const nil = field.type.k === 'ptr' && obj[key] === null;
    const value = encodeValue(obj[key], field.type, viaMap);
    const empty = field.type.k === 'ptr' ? nil : isEmpty(value, field.type);
    if ((field.omitempty === true && empty) || (field.omitzero === true && isZero(value, field.type))) {
      // A map or list the request sent empty is dropped, but Go's validators still see it (and print it)
      // as `{}` or `[]`, not as nil.
      if ((isObject(value) && field.type.k === 'map') || (Array.isArray(value) && field.type.k === 'slice')) noteEmptied(obj, key);
      delete obj[key];
    } else obj[key] = value;
  }
  // A member the request left out holds its zero value, written unless omitempty drops it (a
  // condition's `status: ""` and `lastTransitionTime: null`, a probe's `port: 0`).
  for (const [key, field] of fields) {
    if (Object.hasOwn(obj, key)) continue;
    const zero = absentValue(field.type);
    if (zero === undefined || (field.omitempty === true && isEmpty(zero, field.type)) || (field.omitzero === true && isZero(zero, field.type))) continue;
    Object.defineProperty(obj, key, { value: zero, enumerable: true, writable: true, configurable: true });
  }
}

/**
 * Rewrites `obj`, a built-in kind's object as {@link encodeAsGo} left it, in place as the apiserver reads it
 * back from storage: it stores built-in objects in protobuf, where an empty list, map or byte string is
 * the same as none, and decodes them as Go's nil. So a member of a field without `omitempty` that is
 * absent, empty or nil is then written `null` (a Role's `rules: []` or none at all, a LimitRange's
 * `limits`, a projected volume's `sources`, a data source's `apiGroup`), on the create's answer too (a dry
 * run goes through the storage codec as well). Before storage, validation and admission see the request's
 * `[]`; only what is stored changes.
 *
 * @example
 * ```ts
 * const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [] };
 * storedAsProtobuf(role, { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' });
 * // role.rules is null
 * ```
 */
export function storedAsProtobuf(obj: Record<string, unknown>, gvk: GroupVersionKind): void {
  const name = fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  if (name !== undefined) storeStruct(obj, nilPlan(name));
}

/**
 * A field of a struct that storage can write `null` in: one that becomes nil itself (`nil`), or one holding
 * a struct (`held`, through pointers, lists and maps) that has such fields.
 */
interface NilMember {
  readonly key: string;
  readonly type: Shape;
  readonly nil: boolean;
  readonly held?: readonly NilMember[];
}

/** Per struct, its {@link NilMember}s (empty for the many structs that have none), made once. */
const nilPlans = new Map<string, readonly NilMember[]>();

/** Whether a field's value is decoded from protobuf as Go's nil when it was absent or empty: a list, map, byte string or pointer without `omitempty`. */
function nilWhenEmpty(field: Field): boolean {
  const k = field.type.k;
  return field.omitempty !== true && field.omitzero !== true && (k === 'slice' || k === 'map' || k === 'bytes' || k === 'ptr');
}

/** The struct a value of `shape` holds, through pointers, lists and maps (not through types with a JSON form of their own). */
function heldStruct(shape: Shape): string | undefined {
  let s: Shape | undefined = shape;
  while (s !== undefined && (s.k === 'ptr' || s.k === 'slice' || s.k === 'map')) s = s.e;
  return s?.k === 'struct' ? s.n : undefined;
}

function nilPlan(name: string): readonly NilMember[] {
  const known = nilPlans.get(name);
  if (known !== undefined) return known;
  // A struct that holds itself (none in k8s.io/api does directly) is not looked at twice.
  nilPlans.set(name, []);
  const plan: NilMember[] = [];
  for (const [key, field] of fixture().structs.get(name) ?? []) {
    const heldName = heldStruct(field.type);
    const held = heldName === undefined ? undefined : nilPlan(heldName);
    const nil = nilWhenEmpty(field);
    if (nil || (held !== undefined && held.length > 0)) plan.push({ key, type: field.type, nil, held: held !== undefined && held.length > 0 ? held : undefined });
  }
  nilPlans.set(name, plan);
  return plan;
}

function storeStruct(obj: Record<string, unknown>, plan: readonly NilMember[]): void {
  for (const member of plan) {
    const value = Object.hasOwn(obj, member.key) ? obj[member.key] : undefined;
    // A pointer to an empty string is not nil: only an absent pointer is.
    const empty = value === undefined || (member.type.k !== 'ptr' && (value === '' || (Array.isArray(value) && value.length === 0) || (member.type.k === 'map' && isObject(value) && Object.keys(value).length === 0)));
    if (member.nil && empty) Object.defineProperty(obj, member.key, { value: null, enumerable: true, writable: true, configurable: true });
    else if (member.held !== undefined && value !== undefined && value !== null) storeValue(value, member.type, member.held);
  }
}

/** Each struct a value holds (the value of a pointer, the elements of a list or map), stored. */
function storeValue(value: unknown, shape: Shape, plan: readonly NilMember[]): void {
  if (shape.k === 'struct') {
    if (isObject(value)) storeStruct(value, plan);
  } else if (shape.k === 'ptr') {
    storeValue(value, shape.e!, plan);
  } else if (shape.k === 'slice' && Array.isArray(value)) {
    for (const item of value) if (item !== null) storeValue(item, shape.e!, plan);
  } else if (shape.k === 'map' && isObject(value)) {
    for (const k of Object.keys(value)) if (value[k] !== null) storeValue(value[k], shape.e!, plan);
  }
}

/** The members each object had as empty maps or lists before {@link encodeAsGo} dropped them (read by {@link wasEmpty}). */
const emptied = new WeakMap<object, Set<string>>();

function noteEmptied(obj: object, key: string): void {
  let keys = emptied.get(obj);
  if (keys === undefined) emptied.set(obj, (keys = new Set()));
  keys.add(key);
}

/**
 * A copy of a decoded object that keeps what {@link wasEmpty} knows of it (a plain JSON copy would forget
 * which empty maps and lists the request sent): an update's every attempt works on such a copy.
 * Iterative: any depth is safe.
 */
export function cloneDecoded<T>(value: T): T {
  return cloneJSONWith(value, (from, to) => {
    const keys = emptied.get(from);
    if (keys !== undefined) emptied.set(to, new Set(keys));
  });
}

/**
 * Whether `obj[key]` was an empty map or list that {@link encodeAsGo} dropped as `omitempty` (absent now,
 * as Go writes it, but empty, not nil, to the apiserver's validators: `Invalid value: {}`, `[]`).
 */
export function wasEmpty(obj: unknown, key: string): boolean {
  return isObject(obj) && emptied.get(obj)?.has(key) === true;
}

/**
 * The zero value of a member that was absent, or `undefined` where it stays absent: a nil pointer,
 * map or slice (written as `null`, which the validators read as absent, as Go's do), and the types
 * with a MarshalJSON of their own other than times, int-or-strings and quantities (a zero quantity is
 * written `"0"`, `omitempty` or not: a downward API's `divisor`).
 */
function absentValue(shape: Shape): unknown {
  if (shape.k === 'ptr' || shape.k === 'map' || shape.k === 'slice' || shape.k === 'bytes' || shape.k === 'any') return undefined;
  if (shape.k !== 'custom') return zeroValue(shape);
  if (shape.n === timeType || shape.n === microTimeType) return null;
  if (shape.n === quantityType) return '0';
  return shape.n === intOrStringType ? 0 : undefined;
}

/** A decoded value as encoding/json writes it (`null` where Go holds a nil map, slice or pointer). */
function encodeValue(value: unknown, shape: Shape, viaMap = false): unknown {
  switch (shape.k) {
    // Decoding null into a plain value leaves its zero value.
    case 'string': return value === null ? '' : value;
    case 'int':
    case 'float': return value === null ? 0 : value;
    case 'bool': return value === null ? false : value;
    case 'ptr': return value === null ? null : encodeValue(value, shape.e!, viaMap);
    case 'map':
      if (isObject(value)) for (const k of Object.keys(value)) value[k] = encodeValue(value[k], shape.e!, viaMap);
      return value;
    case 'slice':
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) value[i] = encodeValue(value[i], shape.e!, viaMap);
      return value;
    case 'struct':
      // A null leaves the struct's zero value, which is written with its members that are not omitempty.
      if (value === null) return zeroStruct(shape.n!);
      if (isObject(value)) encodeStruct(value, shape.n!, viaMap);
      return value;
    case 'custom':
      // Types with a MarshalJSON of their own: quantities and times are written in canonical form, a
      // CRD's nested schemas as schemas.
      if (shape.n === quantityType) return canonicalQuantity(value) ?? value;
      if (shape.n !== undefined && nestedSchemaTypes.has(shape.n)) {
        if (isObject(value)) encodeStruct(value, `${schemaPackage}JSONSchemaProps`);
        else if (Array.isArray(value) && shape.n.endsWith('OrArray')) for (const item of value) if (isObject(item)) encodeStruct(item, `${schemaPackage}JSONSchemaProps`);
        return value;
      }
      // What went through a Go map (a strategic merge patch's result, an apply's) holds that map's JSON.
      if (shape.n === rawExtensionType) return viaMap ? inGoMapOrder(value) : value;
      if (shape.n === timeType || shape.n === microTimeType) {
        if (value === null) return null;
        const time = canonicalTime(value, shape.n === microTimeType);
        return time === undefined ? value : time;
      }
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
    case 'custom': return shape.n === quantityType ? '0' : null;
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

/**
 * Why decoding `obj` into the built-in kind's Go type fails, in encoding/json's words (as
 * sigs.k8s.io/json, case-sensitive, reports them), or `undefined` when it decodes: a value of the
 * wrong JSON type (`json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`),
 * an integer that is fractional or out of range (`number 1.5`), a quantity the parser refuses, bytes
 * that are not base64. As encoding/json, the first wrong type in document order (`sorted`: in sorted
 * member order, as a patch's result is written) is reported, unless a type with a decoder of its own
 * (a quantity, an int-or-string, a time, a CRD schema's `items` or `additionalProperties`) fails
 * anywhere: that stops the decode, its error in the context of the field that holds it. Members the Go
 * type lacks are not looked at (unknown fields are reported apart).
 */
export function decodeErrorAsGo(obj: Record<string, unknown>, gvk: GroupVersionKind, options: { sorted?: boolean; bodyText?: string } = {}): string | undefined {
  const name = fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  if (name === undefined) return undefined;
  const found: Found = { sorted: options.sorted === true, bodyText: options.bodyText };
  const error = checkStruct(obj, name, '', found) ?? found.first;
  return goErrorText(error);
}

/** An error of the decode: encoding/json's UnmarshalTypeError, or the text of a decoder's own error. */
type GoError = string | { value: string; struct: string; field: string; type: string };

/** A decode error's text, an UnmarshalTypeError's as encoding/json words it. */
function goErrorText(error: GoError | undefined): string | undefined {
  return error === undefined || typeof error === 'string' ? error : `json: cannot unmarshal ${error.value} into Go struct field ${error.struct}.${error.field} of type ${error.type}`;
}

/** The first type error seen (encoding/json goes on after it, and reports it at the end). */
interface Found {
  first?: GoError;
  /** Members are read in sorted order (a patch's result, which the patcher re-marshalled from a Go map). */
  sorted?: boolean;
  /** The request's JSON text, for how a number beyond float64 was written there. */
  bodyText?: string;
}

/**
 * Checks the members of a struct. Returns a fatal error (a decoder of its own failed); records the
 * first type error in `found`.
 */
function checkStruct(obj: Record<string, unknown>, name: string, path: string, found: Found): GoError | undefined {
  const fields = fixture().structs.get(name);
  if (fields === undefined) return undefined;
  const struct = name.slice(name.lastIndexOf('.') + 1);
  for (const key of keysOf(obj, found)) {
    const field = fields.get(key);
    if (field === undefined) continue;
    const fatal = checkValue(obj[key], field.type, struct, path === '' ? key : `${path}.${key}`, found);
    if (fatal !== undefined) return fatal;
  }
  return undefined;
}

/** An object's members in the order the decoder reads them: as written, or sorted (Go's map encoding, bytewise). */
function keysOf(obj: Record<string, unknown>, found: Found): string[] {
  return found.sorted === true ? goMapKeys(obj) : Object.keys(obj);
}

/**
 * What encoding/json names a JSON value in an UnmarshalTypeError (`number 1.5` where the number itself is
 * the trouble): the number as written, the first literal of its value in the request's text (an integer
 * beyond int64 keeps its digits, `1.50` its zero), and for one beyond float64 (parsed as ±Infinity) the
 * first such literal of its sign.
 */
function valueWord(value: unknown, literal = false, found?: Found): string {
  if (!literal) return jsonTypeName(value);
  if (typeof value === 'number' && found?.bodyText !== undefined) {
    // An integer beyond int64 that float64 holds only rounded (`9223372036854775808`) is written as it was too.
    const written = Number.isFinite(value) ? numberLiteralIn(found.bodyText, value) : floatOverflowIn(found.bodyText, 0, found.bodyText.length, value < 0);
    if (written !== undefined) return `number ${written}`;
  }
  return `number ${String(value)}`;
}


/** Checks one value against its Go type; `struct` and `field` name it in errors. */
function checkValue(value: unknown, shape: Shape, struct: string, field: string, found: Found): GoError | undefined {
  // null leaves any Go value as it is.
  if (value === null || value === undefined) return undefined;
  const typeError = (type: string, literal = false): undefined => {
    found.first ??= { value: valueWord(value, literal, found), struct, field, type };
    return undefined;
  };
  switch (shape.k) {
    case 'string':
      return typeof value === 'string' ? undefined : typeError(shape.g);
    case 'bool':
      return typeof value === 'boolean' ? undefined : typeError(shape.g);
    case 'float':
      return typeof value === 'number' || typeof value === 'bigint' ? undefined : typeError(shape.g);
    case 'int':
      if (typeof value !== 'number' && typeof value !== 'bigint') return typeError(shape.g);
      return fitsInteger(value, shape) ? undefined : typeError(shape.g, true);
    case 'bytes':
      if (typeof value !== 'string') return typeError(shape.g);
      found.first ??= base64Error(value);
      return undefined;
    case 'ptr':
      return checkValue(value, shape.e!, struct, field, found);
    case 'map':
      if (!isObject(value)) return typeError(shape.g);
      for (const k of keysOf(value, found)) {
        const fatal = checkValue(value[k], shape.e!, struct, field, found);
        if (fatal !== undefined) return fatal;
      }
      return undefined;
    case 'slice':
      if (!Array.isArray(value)) return typeError(shape.g);
      for (const item of value) {
        const fatal = checkValue(item, shape.e!, struct, field, found);
        if (fatal !== undefined) return fatal;
      }
      return undefined;
    case 'struct':
      if (!isObject(value)) return typeError(shape.g);
      return checkStruct(value, shape.n!, field, found);
    case 'custom':
      return checkCustom(value, shape, struct, field, found.sorted);
    default:
      return undefined;
  }
}


/**
 * The types with an UnmarshalJSON of their own whose failures the apiserver reports. Their errors end
 * the decode; a type error inside them is reported in the context of the field that holds them.
 */
function checkCustom(value: unknown, shape: Shape, struct: string, field: string, sorted: boolean | undefined): GoError | undefined {
  const inContext = (error: GoError | undefined): GoError | undefined => (error === undefined || typeof error === 'string' ? error : { ...error, struct, field });
  // A CRD schema nested in one of these types is decoded with a json.Unmarshal of its own.
  const schema = (v: Record<string, unknown>): GoError | undefined => {
    const found: Found = { sorted };
    return inContext(checkStruct(v, `${schemaPackage}JSONSchemaProps`, '', found) ?? found.first);
  };
  switch (shape.n) {
    case quantityType:
      return quantityError(value);
    case timeType:
    case microTimeType: {
      // metav1.Time reads a JSON string and parses it as RFC 3339; anything else fails the string decode.
      if (typeof value !== 'string') return { value: valueWord(value), struct, field, type: 'string' };
      const t = parseRFC3339(value);
      if (t.ok || shape.n === timeType) return t.ok ? undefined : t.error;
      // MicroTime parses with RFC3339Micro: the same words up to the seconds, where this one stops (a text
      // RFC 3339 takes but whose fraction is not six digits is left for the encoder, as before).
      return t.error.replace('"2006-01-02T15:04:05Z07:00"', '"2006-01-02T15:04:05.000000Z07:00"');
    }
    case intOrStringType:
      // A string is taken as it is; anything else is decoded as an int32.
      if (typeof value === 'string') return undefined;
      if ((typeof value === 'number' || typeof value === 'bigint') && fitsInteger(value, { k: 'int', g: 'int32', b: 32 })) return undefined;
      return { value: valueWord(value, typeof value === 'number' || typeof value === 'bigint'), struct, field, type: 'int32' };
    case `${schemaPackage}JSONSchemaPropsOrArray`:
      // An object is a schema, an array a list of them; anything else is no schema (left empty).
      if (isObject(value)) return schema(value);
      if (!Array.isArray(value)) return undefined;
      for (const item of value) {
        const error = isObject(item) ? schema(item) : item === null ? undefined : { value: jsonTypeName(item), struct, field, type: 'v1.JSONSchemaProps' };
        if (error !== undefined) return error;
      }
      return undefined;
    case `${schemaPackage}JSONSchemaPropsOrBool`:
      if (isObject(value)) return schema(value);
      return typeof value === 'boolean' ? undefined : 'boolean or JSON schema expected';
    case `${schemaPackage}JSONSchemaPropsOrStringArray`:
      if (isObject(value)) return schema(value);
      if (!Array.isArray(value)) return undefined;
      for (const item of value) if (item !== null && typeof item !== 'string') return { value: jsonTypeName(item), struct, field, type: 'string' };
      return undefined;
    default:
      return undefined;
  }
}


/**
 * What `runtime.DefaultUnstructuredConverter.FromUnstructured` says of a built-in object it cannot convert
 * into the kind's Go type, or `undefined`. The patcher converts a strategic merge patch's result this way
 * (handlers/patch.go), where JSON and merge patches are decoded (see {@link decodeErrorAsGo}), and the
 * converter has words of its own (`unrecognized type: string`, `cannot convert int64 to types.UID`,
 * `cannot restore slice from map`). It stops at the first failure, walking a struct's members in
 * declaration order and a map's in sorted order (Go's is random). Integers it converts as Go converts
 * them, wrapped to the field's size (`4294967377` in an int32 is `81`): those are rewritten in place.
 */
export function convertErrorFromUnstructured(obj: Record<string, unknown>, gvk: GroupVersionKind): string | undefined {
  const name = fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  if (name === undefined) return undefined;
  return convertStruct(obj, name);
}

/** The Go kind of a value of an unstructured object (numbers are int64 when integral and within int64, as utiljson decodes them). */
function unstructuredKind(value: unknown): 'nil' | 'string' | 'bool' | 'int64' | 'float64' | 'map' | 'slice' {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'int64';
  if (typeof value === 'number') return Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63 ? 'int64' : 'float64';
  return Array.isArray(value) ? 'slice' : 'map';
}

function convertStruct(obj: Record<string, unknown>, name: string): string | undefined {
  const fields = fixture().structs.get(name);
  const order = fixture().order.get(name);
  if (fields === undefined || order === undefined) return undefined;
  for (const key of order) {
    if (!Object.hasOwn(obj, key)) continue;
    const error = convertMember(obj, key, fields.get(key)!.type);
    if (error !== undefined) return error;
  }
  return undefined;
}

/** Converts `holder[key]` into a Go value of `shape`: the converter's error, or `undefined` (the value rewritten if Go's conversion changes it). */
function convertMember(holder: Record<string, unknown> | unknown[], key: string | number, shape: Shape): string | undefined {
  const value = (holder as Record<string | number, unknown>)[key];
  const kind = unstructuredKind(value);
  // A nil value leaves the Go value's zero.
  if (kind === 'nil') return undefined;
  switch (shape.k) {
    case 'string':
      if (kind === 'string') return undefined;
      // Go converts an integer to a string (a rune), which JSON does not allow; other kinds do not convert.
      return kind === 'int64' ? `cannot convert int64 to ${shape.g}` : 'unrecognized type: string';
    case 'bool':
      return kind === 'bool' ? undefined : 'unrecognized type: bool';
    case 'int':
      if (kind === 'int64' || kind === 'float64' && Number.isInteger(value)) {
        // Beyond int64, a float64 converts as amd64 truncates it: to the "integer indefinite" 1<<63.
        const n = kind === 'int64' ? BigInt(value as number | bigint) : -(2n ** 63n);
        const bits = shape.b ?? 64;
        const wrapped = shape.u === true ? BigInt.asUintN(bits, n) : BigInt.asIntN(bits, n);
        if (wrapped !== BigInt(value as number | bigint)) (holder as Record<string | number, unknown>)[key] = Number.isSafeInteger(Number(wrapped)) ? Number(wrapped) : wrapped;
        return undefined;
      }
      if (kind === 'float64') return `cannot convert float64 to ${shape.g}`;
      return `unrecognized type: ${intKind(shape)}`;
    case 'float':
      return kind === 'int64' || kind === 'float64' ? undefined : `unrecognized type: ${shape.g.startsWith('float') ? shape.g : 'float64'}`;
    case 'bytes': {
      if (kind === 'string') {
        const error = base64Error(value as string);
        return error === undefined ? undefined : `error decoding from json: ${error}`;
      }
      if (kind !== 'slice') return `cannot restore slice from ${kind}`;
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const error = convertMember(items, i, { k: 'int', g: 'uint8', b: 8, u: true });
        if (error !== undefined) return error;
      }
      // The bytes, which encoding/json writes in base64.
      (holder as Record<string | number, unknown>)[key] = Buffer.from(items as number[]).toString('base64');
      return undefined;
    }
    case 'slice': {
      if (kind !== 'slice') return `cannot restore slice from ${kind}`;
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const error = convertMember(items, i, shape.e!);
        if (error !== undefined) return error;
      }
      return undefined;
    }
    case 'map': {
      if (kind !== 'map') return `cannot restore map from ${kind}`;
      const map = value as Record<string, unknown>;
      for (const k of goMapKeys(map)) {
        const error = convertMember(map, k, shape.e!);
        if (error !== undefined) return error;
      }
      return undefined;
    }
    case 'ptr':
      return convertMember(holder, key, shape.e!);
    case 'struct':
      return kind === 'map' ? convertStruct(value as Record<string, unknown>, shape.n!) : `cannot restore struct from: ${kind}`;
    case 'custom':
      return convertCustom(value, kind, shape);
    default:
      // An interface holds anything.
      return undefined;
  }
}

/** The name of an integer type's kind, as `reflect.Kind` prints it. */
function intKind(shape: Shape): string {
  if (shape.g === 'int' || shape.g === 'uint') return shape.g;
  return `${shape.u === true ? 'uint' : 'int'}${shape.b ?? 64}`;
}

/**
 * A type with an UnmarshalJSON of its own, given the value's JSON (`json.Marshal` of the unstructured
 * value): its own error, without the struct context encoding/json would add.
 */
function convertCustom(value: unknown, kind: ReturnType<typeof unstructuredKind>, shape: Shape): string | undefined {
  switch (shape.n) {
    case quantityType:
      return quantityError(value);
    case timeType: case microTimeType: {
      if (kind !== 'string') return `json: cannot unmarshal ${jsonTypeName(value)} into Go value of type string`;
      const t = parseRFC3339(value as string);
      return t.ok ? undefined : t.error;
    }
    case intOrStringType:
      if (kind === 'string') return undefined;
      if (kind === 'int64' && fitsInteger(value as number | bigint, { k: 'int', g: 'int32', b: 32 })) return undefined;
      return `json: cannot unmarshal ${kind === 'int64' || kind === 'float64' ? `number ${goFloatText(value as number | bigint)}` : jsonTypeName(value)} into Go value of type int32`;
    default: {
      // A CRD's nested schemas decode with a json.Unmarshal of their own (FieldsV1, JSON and RawExtension take anything).
      const error = checkCustom(value, shape, '', '', true);
      return goErrorText(error);
    }
  }
}

/** A number as Go's json.Marshal writes an int64 or a float64 (`1.5`, `1e+21`). */
function goFloatText(value: number | bigint): string {
  if (typeof value === 'bigint' || Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Whether a JSON number is an integer that the Go integer type holds. */
function fitsInteger(value: number | bigint, shape: Shape): boolean {
  if (typeof value === 'number' && !Number.isInteger(value)) return false;
  const n = BigInt(value);
  const bits = BigInt(shape.b ?? 64);
  return shape.u === true ? n >= 0n && n < 2n ** bits : n >= -(2n ** (bits - 1n)) && n < 2n ** (bits - 1n);
}

const base64Alphabet = /[A-Za-z0-9+/]/;

/**
 * Why Go's `base64.StdEncoding` refuses `text` (`illegal base64 data at input byte N`, N a byte
 * offset), or `undefined`. Newlines are skipped; padding is required.
 */
export function base64Error(text: string): string | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const corrupt = (at: number): string => `illegal base64 data at input byte ${at}`;
  const isNewline = (c: number): boolean => c === 0x0a || c === 0x0d;
  let i = 0;
  for (;;) {
    let j = 0;
    for (; j < 4; j++) {
      while (i < bytes.length && isNewline(bytes[i])) i++;
      if (i === bytes.length) {
        if (j === 0) return undefined;
        return corrupt(i - j);
      }
      const c = bytes[i++];
      if (c === 0x3d) {
        // Padding: "==" after two characters, "=" after three; nothing but newlines after it.
        if (j < 2) return corrupt(i - 1);
        if (j === 2) {
          while (i < bytes.length && isNewline(bytes[i])) i++;
          if (i === bytes.length) return corrupt(bytes.length);
          if (bytes[i] !== 0x3d) return corrupt(i - 1);
          i++;
        }
        while (i < bytes.length && isNewline(bytes[i])) i++;
        return i < bytes.length ? corrupt(i) : undefined;
      }
      if (c >= 0x80 || !base64Alphabet.test(String.fromCharCode(c))) return corrupt(i - 1);
    }
  }
}
