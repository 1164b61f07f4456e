/**
 * CEL values at run time and the conversion of custom-resource JSON into them, following
 * k8s.io/apiserver's `UnstructuredToVal`: objects with properties select fields by their escaped
 * names and treat `null` fields as absent, `x-kubernetes-list-type: set`/`map` lists compare
 * order-insensitively and concatenate as unions/merges, formats `date`/`date-time`/`duration`/`byte`
 * become timestamps, durations and bytes, and int-or-string values are ints or strings.
 *
 * Representation: `int` is `bigint`, `uint` a {@link UintVal}, `double` a `number`, `bytes` a
 * `Uint8Array`; errors are {@link ErrVal} values (not exceptions) so that `&&`, `||` and the
 * comprehension macros can absorb them as CEL requires.
 */
import type { Schema } from '../schema.js';
import { goKind, goTypeName } from './goKind.js';
import { escapeProperty, unescapeProperty } from './escaping.js';
import { parseDate, parseStrfmtDateTime, parseStrfmtDuration } from './time.js';
import type { CelType } from './types.js';
import {
  BoolType, BytesType, DoubleType, DurationType, IntType, NullType, StringType, TimestampType, TypeType, UintType,
  listType, mapType, DynType, optionalType, typeOfType,
} from './types.js';

/** An unsigned integer. */
export class UintVal {
  constructor(readonly value: bigint) {}
}

/** A timestamp: nanoseconds since the Unix epoch, and the zone offset it prints in (Go keeps a location). */
export class TimestampVal {
  constructor(readonly ns: bigint, readonly offset = 0) {}
}

/** A duration in nanoseconds. */
export class DurationVal {
  constructor(readonly ns: bigint) {}
}

/** A type as a value (`type(x)`, `int`). Equal when the names are. */
export class TypeVal {
  constructor(readonly type: CelType) {}
}

/** `optional_type(T)`. */
export class OptionalVal {
  constructor(readonly value: CelVal | undefined) {}

  hasValue(): boolean {
    return this.value !== undefined;
  }
}

/** A runtime error value. */
export class ErrVal {
  constructor(readonly message: string) {}
}

/** A value of a library type (URL, IP, CIDR, Quantity, Format, Semver). */
export abstract class OpaqueVal {
  abstract readonly celType: CelType;
  abstract equals(other: OpaqueVal): boolean;
  /** The size cost functions see (`traits.Sizer`); 1 when the value has none. */
  size(): number {
    return 1;
  }
}

/** Any CEL value. */
export type CelVal =
  | null | boolean | bigint | number | string | Uint8Array | UintVal | TimestampVal | DurationVal
  | ListVal | MapVal | OptionalVal | TypeVal | OpaqueVal | ErrVal | UnknownVal;

/** Preserved unknown data: only equality is supported. */
export class UnknownVal {
  constructor(readonly raw: unknown) {}
}

/** A list. `listType` decides equality and concatenation. */
export abstract class ListVal {
  listType: 'atomic' | 'set' | 'map' = 'atomic';
  /** Escaped `x-kubernetes-list-map-keys` of a map list. */
  mapKeys: readonly string[] = [];
  abstract size(): number;
  abstract get(i: number): CelVal;

  *[Symbol.iterator](): IterableIterator<CelVal> {
    const n = this.size();
    for (let i = 0; i < n; i++) yield this.get(i);
  }
}

/** A list of values. */
export class ArrayList extends ListVal {
  constructor(readonly items: readonly CelVal[], listType: ListVal['listType'] = 'atomic', mapKeys: readonly string[] = []) {
    super();
    this.listType = listType;
    this.mapKeys = mapKeys;
  }

  size(): number {
    return this.items.length;
  }

  get(i: number): CelVal {
    return this.items[i];
  }
}

/** A JSON array under an `array` schema, converted element by element on access. */
class JsonList extends ListVal {
  private readonly cache: (CelVal | undefined)[];

  constructor(private readonly raw: readonly unknown[], private readonly items: Schema) {
    super();
    this.cache = new Array(raw.length);
  }

  size(): number {
    return this.raw.length;
  }

  get(i: number): CelVal {
    let v = this.cache[i];
    if (v === undefined) {
      v = fromJSON(this.raw[i], this.items);
      this.cache[i] = v;
    }
    return v;
  }
}

/** A map or an object. */
export abstract class MapVal {
  abstract size(): number;
  /** The value at `key`, or `undefined` when absent. */
  abstract find(key: CelVal): CelVal | undefined;
  abstract keys(): Iterable<CelVal>;
}

function mapKeyString(k: CelVal): string | undefined {
  switch (typeof k) {
    case 'string': return 's' + k;
    case 'boolean': return 'b' + String(k);
    case 'bigint': return 'n' + String(k);
    case 'number': return Number.isInteger(k) ? 'n' + BigInt(k).toString() : 'd' + String(k);
    default: return k instanceof UintVal ? 'n' + String(k.value) : undefined;
  }
}

/** A map built by an expression. */
export class LiteralMap extends MapVal {
  private readonly entries = new Map<string, [CelVal, CelVal]>();

  /** Adds an entry; returns false if the key exists. */
  set(key: CelVal, value: CelVal): boolean {
    const k = mapKeyString(key) ?? '?' + String(key);
    if (this.entries.has(k)) return false;
    this.entries.set(k, [key, value]);
    return true;
  }

  size(): number {
    return this.entries.size;
  }

  find(key: CelVal): CelVal | undefined {
    const k = mapKeyString(key);
    return k === undefined ? undefined : this.entries.get(k)?.[1];
  }

  *keys(): IterableIterator<CelVal> {
    for (const [k] of this.entries.values()) yield k;
  }

  /** A copy with one more entry (`cel.@mapInsert`). */
  with(key: CelVal, value: CelVal): LiteralMap | undefined {
    const m = new LiteralMap();
    for (const [k, v] of this.entries.values()) m.set(k, v);
    return m.set(key, value) ? m : undefined;
  }
}

/** A JSON object under an `additionalProperties` schema. */
class JsonMap extends MapVal {
  constructor(readonly raw: Record<string, unknown>, private readonly values: Schema) {
    super();
  }

  size(): number {
    return Object.keys(this.raw).length;
  }

  find(key: CelVal): CelVal | undefined {
    if (typeof key !== 'string' || !Object.hasOwn(this.raw, key)) return undefined;
    return fromJSON(this.raw[key], this.values);
  }

  keys(): Iterable<CelVal> {
    return Object.keys(this.raw);
  }
}

/** The schema of a declared property; own properties only, so data keys like `constructor` never reach a prototype. */
function declaredProperty(schema: Schema, name: string): Schema | undefined {
  const props = schema.properties;
  return props !== undefined && props !== null && Object.hasOwn(props, name) ? props[name] : undefined;
}

/** A JSON object under a schema with `properties` (or an embedded resource): a CEL object. */
export class ObjectVal extends MapVal {
  constructor(readonly raw: Record<string, unknown>, readonly schema: Schema) {
    super();
  }

  size(): number {
    return Object.keys(this.raw).length;
  }

  /** The value of a property given by its escaped name; `undefined` when absent or null. */
  field(escaped: string): CelVal | undefined {
    const name = unescapeProperty(escaped);
    if (name === undefined || !Object.hasOwn(this.raw, name)) return undefined;
    const v = this.raw[name];
    if (v === null || v === undefined) return undefined;
    const prop = declaredProperty(this.schema, name);
    return prop === undefined ? undefined : fromJSON(v, prop);
  }

  find(key: CelVal): CelVal | undefined {
    return typeof key === 'string' ? this.field(key) : undefined;
  }

  *keys(): IterableIterator<CelVal> {
    for (const k of Object.keys(this.raw)) {
      if (declaredProperty(this.schema, k) !== undefined) yield escapeProperty(k) ?? k;
    }
  }
}

const metaCache = new WeakMap<Schema, Schema>();

/**
 * The schema with `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` declared, as
 * the root of a resource and embedded resources expose them (`WithTypeAndObjectMeta`). Remembered per
 * schema object, for evaluation; see `typeAndObjectMeta` for one built anew.
 */
export function withTypeAndObjectMeta(s: Schema): Schema {
  if (hasTypeAndObjectMeta(s)) return s;
  let out = metaCache.get(s);
  if (out === undefined) {
    out = typeAndObjectMeta(s);
    metaCache.set(s, out);
  }
  return out;
}

function hasTypeAndObjectMeta(s: Schema): boolean {
  const p = s.properties;
  const meta = p?.metadata;
  return p !== undefined && p.kind?.type === 'string' && p.apiVersion?.type === 'string' && meta?.type === 'object' &&
    meta.properties?.name?.type === 'string' && meta.properties?.generateName?.type === 'string';
}

/**
 * {@link withTypeAndObjectMeta} built from the schema as it is now (a shallow copy of its root), for
 * compilation: a schema changed in place since it was last seen must not be declared as it was.
 */
export function typeAndObjectMeta(s: Schema): Schema {
  if (hasTypeAndObjectMeta(s)) return s;
  const p = s.properties;
  const meta = p?.metadata;
  const capped = (existing: Schema | undefined, max: number): Schema => ({
    type: 'string', maxLength: existing?.maxLength !== undefined && existing.maxLength < max ? existing.maxLength : max,
  });
  return {
    ...s,
    properties: {
      ...p,
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: {
        type: 'object',
        properties: { name: capped(meta?.properties?.name, 253), generateName: capped(meta?.properties?.generateName, 252) },
      },
    },
  };
}

function base64Decode(s: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return undefined;
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/** `UnstructuredToVal`: a JSON value under its structural schema. */
export function fromJSON(raw: unknown, schema: Schema): CelVal {
  if (raw === null || raw === undefined) {
    return schema.nullable === true ? null : new ErrVal('invalid data, got null for schema with nullable=false');
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (typeof raw === 'string') return raw;
    if (goKind(raw) === 'int') return BigInt(raw as number | bigint);
    return new ErrVal('invalid data, expected XIntOrString value to be either a string or integer');
  }
  switch (schema.type) {
    case 'object': {
      if (goKind(raw) !== 'map') return new ErrVal('invalid data, expected a map for the provided schema with type=object');
      const m = raw as Record<string, unknown>;
      if (schema['x-kubernetes-embedded-resource'] === true) return new ObjectVal(m, withTypeAndObjectMeta(schema));
      if (schema.properties !== undefined) return new ObjectVal(m, schema);
      const ap = schema.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') return new JsonMap(m, ap);
      return new ObjectVal(m, schema);
    }
    case 'array': {
      if (!Array.isArray(raw)) return new ErrVal('invalid data, expected an array for the provided schema with type=array');
      const items = schema.items;
      if (items === undefined || Array.isArray(items)) return new ErrVal('invalid array type, expected Items with a non-empty Schema');
      const l = new JsonList(raw, items);
      const lt = schema['x-kubernetes-list-type'];
      if (lt === 'set' || lt === 'map') l.listType = lt;
      if (lt === 'map') l.mapKeys = (schema['x-kubernetes-list-map-keys'] ?? []).map((k) => escapeProperty(k) ?? k);
      return l;
    }
    case 'string': {
      if (typeof raw !== 'string') return new ErrVal(`invalid data, expected string, got ${goTypeName(raw)}`);
      switch (schema.format) {
        case 'duration': {
          const d = parseStrfmtDuration(raw);
          return d === undefined ? new ErrVal(`Invalid duration ${raw}: time: invalid duration "${raw}"`) : new DurationVal(d);
        }
        case 'date': {
          const d = parseDate(raw);
          return d === undefined ? new ErrVal(`Invalid date formatted string ${raw}`) : new TimestampVal(d);
        }
        case 'date-time': {
          const d = parseStrfmtDateTime(raw);
          return d === undefined ? new ErrVal(`Invalid date-time formatted string ${raw}`) : new TimestampVal(d.ns, d.offset);
        }
        case 'byte': {
          const b = base64Decode(raw);
          return b === undefined ? new ErrVal(`Invalid byte formatted string ${raw}: illegal base64 data`) : b;
        }
        default: return raw;
      }
    }
    case 'number': {
      const k = goKind(raw);
      if (k === 'int' || k === 'float') return Number(raw);
      return new ErrVal(`invalid data, expected float, got ${goTypeName(raw)}`);
    }
    case 'integer':
      if (goKind(raw) === 'int') return BigInt(raw as number | bigint);
      return new ErrVal(`invalid data, expected int, got ${goTypeName(raw)}`);
    case 'boolean':
      return typeof raw === 'boolean' ? raw : new ErrVal(`invalid data, expected bool, got ${goTypeName(raw)}`);
    default:
      if (schema['x-kubernetes-preserve-unknown-fields'] === true) return new UnknownVal(raw);
      return new ErrVal(`invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got ${schema.type ?? ''}`);
  }
}


/** The runtime type of a value (`type(x)`). Objects are maps at run time, as in the apiserver. */
export function typeOfValue(v: CelVal): CelType {
  if (v === null) return NullType;
  switch (typeof v) {
    case 'boolean': return BoolType;
    case 'bigint': return IntType;
    case 'number': return DoubleType;
    case 'string': return StringType;
    default: break;
  }
  if (v instanceof Uint8Array) return BytesType;
  if (v instanceof UintVal) return UintType;
  if (v instanceof TimestampVal) return TimestampType;
  if (v instanceof DurationVal) return DurationType;
  if (v instanceof ListVal) return listType(DynType);
  if (v instanceof MapVal) return mapType(DynType, DynType);
  if (v instanceof OptionalVal) return optionalType(DynType);
  if (v instanceof TypeVal) return TypeType;
  if (v instanceof OpaqueVal) return v.celType;
  return typeOfType();
}

/** The runtime type name, as `type(x)` compares it. */
export function typeNameOf(v: CelVal): string {
  return typeOfValue(v).name;
}

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length === 0 ? 0 : a.length < b.length ? -1 : 1;
}

type Num = { kind: 'int' | 'uint'; v: bigint } | { kind: 'double'; v: number };

function asNum(v: CelVal): Num | undefined {
  if (typeof v === 'bigint') return { kind: 'int', v };
  if (typeof v === 'number') return { kind: 'double', v };
  if (v instanceof UintVal) return { kind: 'uint', v: v.value };
  return undefined;
}

function compareNum(a: Num, b: Num): number | undefined {
  if (a.kind !== 'double' && b.kind !== 'double') return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
  const x = a.kind === 'double' ? a.v : a.v;
  const y = b.kind === 'double' ? b.v : b.v;
  if (typeof x === 'number' && Number.isNaN(x)) return undefined;
  if (typeof y === 'number' && Number.isNaN(y)) return undefined;
  if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : x > y ? 1 : 0;
  // One side is an integer: compare exactly.
  const d = (typeof x === 'number' ? x : (y as number));
  const i = (typeof x === 'bigint' ? x : (y as bigint));
  let c: number;
  if (d === Infinity) c = 1;
  else if (d === -Infinity) c = -1;
  else {
    const fl = Math.floor(d);
    const bi = BigInt(fl);
    c = bi > i ? 1 : bi < i ? -1 : d > fl ? 1 : 0;
  }
  return typeof x === 'number' ? c : -c;
}

/**
 * Orders two values of comparable types (`<` and friends): `-1`, `0`, `1`, or an {@link ErrVal}
 * (`no such overload`, or NaN).
 */
export function compareValues(a: CelVal, b: CelVal): number | ErrVal {
  const na = asNum(a);
  const nb = asNum(b);
  if (na !== undefined && nb !== undefined) {
    const c = compareNum(na, nb);
    return c === undefined ? new ErrVal('NaN values cannot be ordered') : c;
  }
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof TimestampVal && b instanceof TimestampVal) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  if (a instanceof DurationVal && b instanceof DurationVal) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  const ca = (a as { compareTo?: (o: CelVal) => number | ErrVal }).compareTo;
  if (a instanceof OpaqueVal && typeof ca === 'function') return ca.call(a, b);
  return noSuchOverload();
}

/** The `no such overload` runtime error. */
export function noSuchOverload(): ErrVal {
  return new ErrVal('no such overload');
}

function deepEqualRaw(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ka = goKind(a);
  if (ka !== goKind(b)) return false;
  switch (ka) {
    case 'int': case 'float': return Number(a) === Number(b) && BigInt.asIntN(64, BigInt(Math.trunc(Number(a)))) === BigInt.asIntN(64, BigInt(Math.trunc(Number(b))));
    case 'slice': {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((v, i) => deepEqualRaw(v, y[i]));
    }
    case 'map': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      return kx.every((k) => Object.hasOwn(y, k) && deepEqualRaw(x[k], y[k]));
    }
    default: return a === b;
  }
}

function setKey(v: CelVal): string | ErrVal {
  if (v instanceof ListVal || v instanceof MapVal) return new ErrVal('listSet operations are only supported on lists of scalar values');
  if (v instanceof Uint8Array) return 'y' + Buffer.from(v).toString('hex');
  if (v instanceof TimestampVal) return 't' + String(v.ns);
  if (v instanceof DurationVal) return 'u' + String(v.ns);
  if (v === null) return 'null';
  if (typeof v === 'number') return 'd' + String(v);
  if (typeof v === 'bigint') return 'i' + String(v);
  if (v instanceof UintVal) return 'w' + String(v.value);
  return (typeof v) + ':' + String(v);
}

/** The key of a map-list element: the values of its key properties. */
function mapListKey(v: CelVal, keys: readonly string[]): string {
  const parts = keys.map((k) => {
    let f: CelVal | undefined;
    if (v instanceof ObjectVal) f = v.field(k);
    else if (v instanceof MapVal) f = v.find(k);
    if (f === undefined || f instanceof ErrVal) return 'absent';
    const s = setKey(f);
    return typeof s === 'string' ? s : 'absent';
  });
  return JSON.stringify(parts);
}

/** CEL equality (`_==_`): `true`, `false`, or an error from an element comparison. */
export function equals(a: CelVal, b: CelVal): boolean | ErrVal {
  if (a instanceof ErrVal) return a;
  if (b instanceof ErrVal) return b;
  if (a === b) return typeof a === 'number' ? !Number.isNaN(a) : true;
  const na = asNum(a);
  const nb = asNum(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    return compareNum(na, nb) === 0;
  }
  if (a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && compareBytes(a, b) === 0;
  if (a instanceof TimestampVal) return b instanceof TimestampVal && a.ns === b.ns;
  if (a instanceof DurationVal) return b instanceof DurationVal && a.ns === b.ns;
  if (a instanceof TypeVal) return b instanceof TypeVal && a.type.name === b.type.name;
  if (a instanceof OptionalVal) {
    if (!(b instanceof OptionalVal)) return false;
    if (a.value === undefined || b.value === undefined) return a.value === b.value;
    return equals(a.value, b.value);
  }
  if (a instanceof UnknownVal) return b instanceof UnknownVal && deepEqualRaw(a.raw, b.raw);
  if (a instanceof OpaqueVal) return b instanceof OpaqueVal && a.equals(b);
  if (a instanceof ListVal) return listEquals(a, b);
  if (a instanceof MapVal) return mapEquals(a, b);
  return false;
}

function listEquals(a: ListVal, b: CelVal): boolean | ErrVal {
  if (!(b instanceof ListVal)) return noSuchOverload();
  const n = a.size();
  if (n !== b.size()) return false;
  if (a.listType === 'set') {
    const mine = new Set<string>();
    for (const v of a) {
      const k = setKey(v);
      if (k instanceof ErrVal) return k;
      mine.add(k);
    }
    const seen = new Set<string>();
    for (const v of b) {
      const k = setKey(v);
      if (k instanceof ErrVal) return k;
      if (!mine.has(k)) return false;
      seen.add(k);
    }
    return seen.size === mine.size;
  }
  if (a.listType === 'map') {
    const mine = new Map<string, CelVal>();
    for (const v of a) mine.set(mapListKey(v, a.mapKeys), v);
    const seen = new Set<string>();
    for (const v of b) {
      const k = mapListKey(v, a.mapKeys);
      const t = mine.get(k);
      if (t === undefined) return false;
      const eq = equals(t, v);
      if (eq !== true) return eq;
      seen.add(k);
    }
    return seen.size === mine.size;
  }
  for (let i = 0; i < n; i++) {
    const eq = equals(a.get(i), b.get(i));
    if (eq !== true) return eq;
  }
  return true;
}

function mapEquals(a: MapVal, b: CelVal): boolean | ErrVal {
  if (!(b instanceof MapVal)) return noSuchOverload();
  if (a.size() !== b.size()) return false;
  if (a instanceof ObjectVal) {
    for (const [key, value] of Object.entries(a.raw)) {
      if (declaredProperty(a.schema, key) !== undefined) {
        const escaped = escapeProperty(key) ?? key;
        const v = a.field(escaped);
        const ov = b instanceof ObjectVal ? b.field(escaped) : b.find(escaped);
        if ((v === undefined) !== (ov === undefined)) return false;
        if (v === undefined || ov === undefined) continue;
        const eq = equals(v, ov);
        if (eq !== true) return eq;
      } else {
        if (!(b instanceof ObjectVal)) return noSuchOverload();
        if (Object.hasOwn(b.raw, key) && !deepEqualRaw(value, b.raw[key])) return false;
      }
    }
    return true;
  }
  for (const k of a.keys()) {
    const v = a.find(k);
    const ov = b.find(k);
    if (ov === undefined) return false;
    if (v === undefined) continue;
    const eq = equals(v, ov);
    if (eq !== true) return eq;
  }
  return true;
}

/** `X + Y` for lists: a union for sets, a merge for map lists, concatenation otherwise. */
export function concatLists(a: ListVal, b: ListVal): ListVal | ErrVal {
  if (a.listType === 'set') {
    const out = [...a];
    const seen = new Set<string>();
    for (const v of out) {
      const k = setKey(v);
      if (k instanceof ErrVal) return k;
      seen.add(k);
    }
    for (const v of b) {
      const k = setKey(v);
      if (k instanceof ErrVal) return k;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(v);
      }
    }
    return new ArrayList(out, 'set');
  }
  if (a.listType === 'map') {
    const out = [...a];
    const index = new Map<string, number>();
    out.forEach((v, i) => index.set(mapListKey(v, a.mapKeys), i));
    for (const v of b) {
      const k = mapListKey(v, a.mapKeys);
      const at = index.get(k);
      if (at !== undefined) out[at] = v;
      else {
        index.set(k, out.length);
        out.push(v);
      }
    }
    return new ArrayList(out, 'map', a.mapKeys);
  }
  return new ArrayList([...a, ...b]);
}

/** The size `size()` reports and costs use (`traits.Sizer`); `undefined` for unsized values. */
export function sizeOf(v: CelVal): number | undefined {
  if (typeof v === 'string') {
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < v.length) i++;
      n++;
    }
    return n;
  }
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof ListVal || v instanceof MapVal) return v.size();
  return undefined;
}

/** The size cost functions see: `sizeOf`, an optional's value's size, or 1. */
export function actualSize(v: CelVal): number {
  if (v instanceof OptionalVal && v.value !== undefined) return actualSize(v.value);
  if (v instanceof OpaqueVal) return v.size();
  return sizeOf(v) ?? 1;
}
