/**
 * CEL types of a structural schema, as the apiserver declares `self` (k8s.io/apiserver
 * `common.SchemaDeclType`): objects with properties become object types whose fields are the
 * escaped property names, `additionalProperties` maps `map(string, V)`, arrays `list(T)`,
 * int-or-string `dyn`, and the `byte`, `duration`, `date` and `date-time` string formats `bytes`,
 * `duration` and `timestamp`. Properties of unknown type (no type, preserve-unknown-fields) and
 * names that cannot be escaped are left out. Each type also carries the worst-case sizes the cost
 * estimator uses (`maxItems`/`maxProperties`/`maxLength`, or what fits in a 3 MiB request).
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#validation-rules
 */
import type { Schema } from './schema.js';
import { BoundedCache } from './internal/boundedCache.js';
import { escapeProperty } from './internal/escaping.js';
import type { CelType } from './internal/types.js';
import {
  BoolType, BytesType, DoubleType, DurationType, DynType, IntType, StringType, TimestampType, listType, mapType, objectType,
} from './internal/types.js';
import { typeAndObjectMeta } from './internal/values.js';

/** The largest request the apiserver accepts; sizes without a declared limit are bounded by it. */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

/** A field of an object type. */
export interface DeclField {
  /** The escaped name, as rules select it. */
  readonly name: string;
  /** The property name in the schema. */
  readonly property: string;
  readonly type: DeclType;
  readonly required: boolean;
}

/** The CEL type of a schema node, with the size bounds cost estimation uses. */
export interface DeclType {
  readonly celType: CelType;
  /** Fields of an object type, by escaped name. */
  readonly fields?: ReadonlyMap<string, DeclField>;
  /** Item type of a list, value type of a map. */
  readonly elem?: DeclType;
  /** Key type of a map. */
  readonly key?: DeclType;
  /** The most items, properties or characters a value may have. */
  readonly maxElements: number;
  /**
   * The type of a field of any name selected on a value of this type (a map whose every value is bounded
   * alike: DRA's attributes of one domain, `device.attributes["d"].model`), for the cost estimate.
   */
  readonly anyField?: DeclType;
  /** The fewest bytes a value takes in JSON. */
  readonly minSerializedSize: number;
}

function scalar(celType: CelType, minSerializedSize: number, maxElements = 0): DeclType {
  return { celType, minSerializedSize, maxElements };
}

const stringDecl = scalar(StringType, 2);

function zeroIfNegative(v: number): number {
  return v < 0 ? 0 : v;
}

function maxStringLengthPerRequest(s: Schema): number {
  if (s['x-kubernetes-int-or-string'] === true) return maxRequestSizeBytes - 2;
  switch (s.format) {
    case 'duration': return 32;
    case 'date': return 12;
    case 'date-time': return 32;
    default: return maxRequestSizeBytes - 2;
  }
}

function stringMaxElements(s: Schema): number {
  if (s.maxLength !== undefined) return zeroIfNegative(s.maxLength) * 4;
  if (s.enum !== undefined && s.enum.length > 0) {
    let max = 0;
    for (const v of s.enum) if (typeof v === 'string' && Buffer.byteLength(v) > max) max = Buffer.byteLength(v);
    return max;
  }
  return maxStringLengthPerRequest(s);
}

/**
 * The CEL type of a structural schema node, or `undefined` when rules cannot see it. `isResourceRoot`
 * adds `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` (the root of a custom
 * resource, and embedded resources). Object types are named `object` until {@link assignTypeNames}.
 */
export function schemaDeclType(s: Schema | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (s === undefined) return undefined;
  if (s['x-kubernetes-int-or-string'] === true) {
    return scalar(DynType, 1, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : maxStringLengthPerRequest(s));
  }
  if (isResourceRoot) s = typeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      const items = s.items;
      if (items === undefined || Array.isArray(items)) return undefined;
      const itemsType = schemaDeclType(items, items['x-kubernetes-embedded-resource'] === true);
      if (itemsType === undefined) return undefined;
      const maxItems = s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : Math.floor((maxRequestSizeBytes - 2) / (itemsType.minSerializedSize + 1));
      return { celType: listType(itemsType.celType), elem: itemsType, maxElements: maxItems, minSerializedSize: 2 };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') {
        const propsType = schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (propsType === undefined) return undefined;
        const maxProperties = s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties)
          : Math.floor((maxRequestSizeBytes - 2) / (propsType.minSerializedSize + 6));
        return { celType: mapType(StringType, propsType.celType), key: stringDecl, elem: propsType, maxElements: maxProperties, minSerializedSize: 2 };
      }
      const fields = new Map<string, DeclField>();
      const required = new Set(s.required ?? []);
      let minSerializedSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const fieldType = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (fieldType === undefined) continue;
        const escaped = escapeProperty(name);
        if (escaped !== undefined) fields.set(escaped, { name: escaped, property: name, type: fieldType, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) minSerializedSize += name.length + fieldType.minSerializedSize + 4;
      }
      return { celType: objectType('object'), fields, maxElements: 0, minSerializedSize };
    }
    case 'string':
      switch (s.format) {
        case 'byte': return scalar(BytesType, 2, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : maxStringLengthPerRequest(s));
        case 'duration': return scalar(DurationType, 3, maxStringLengthPerRequest(s));
        case 'date': return scalar(TimestampType, 12, maxStringLengthPerRequest(s));
        case 'date-time': return scalar(TimestampType, 21, maxStringLengthPerRequest(s));
        default: return scalar(StringType, 2, stringMaxElements(s));
      }
    case 'boolean': return scalar(BoolType, 4);
    case 'number': return scalar(DoubleType, 1);
    case 'integer': return scalar(IntType, 1);
    default: return undefined;
  }
}

/**
 * Names the object types of a tree (`MaybeAssignTypeName`): the root gets `name`, a field
 * `<parent>.<field>`, list items `<parent>.@idx`, map values `<parent>.@elem`.
 */
export function assignTypeNames(t: DeclType, name: string): DeclType {
  if (t.fields !== undefined) {
    const objName = t.celType.name !== 'object' ? t.celType.name : name;
    const fields = new Map<string, DeclField>();
    for (const [k, f] of t.fields) fields.set(k, { ...f, type: assignTypeNames(f.type, `${objName}.${k}`) });
    return { ...t, celType: objectType(objName), fields };
  }
  if (t.key !== undefined && t.elem !== undefined) {
    const elem = assignTypeNames(t.elem, `${name}.@elem`);
    return { ...t, elem, celType: mapType(t.key.celType, elem.celType) };
  }
  if (t.elem !== undefined) {
    const elem = assignTypeNames(t.elem, `${name}.@idx`);
    return { ...t, elem, celType: listType(elem.celType) };
  }
  return t;
}

let typeNameCounter = 0;

/** A fresh name for `self`'s type, as the apiserver's `generateUniqueSelfTypeName`. */
function selfTypeName(): string {
  typeNameCounter = (typeNameCounter + 1) % 1_000_000_000;
  return `selfType${typeNameCounter}`;
}

/**
 * The schemas {@link ruleDeclType} remembers: at most 256, and keys of at most 2^20 characters in all (a
 * key, and the declaration it stands for, grow with the schema), the least recently used forgotten first.
 */
const declCache = new BoundedCache<DeclType | null>(256, 2 ** 20);

/** A schema word in a key: quoted when text, so that no value can pass for the key's own punctuation. */
function keyPart(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return `${v}n`;
  return JSON.stringify(v) ?? String(v);
}

/**
 * The parts of a schema its declarations depend on, as text: what {@link schemaDeclType} and
 * `typeAndObjectMeta` read, and nothing else (rules, descriptions, defaults' values, patterns), so
 * that schemas differing only in their rules share one declaration. `undefined` past a nesting depth.
 */
function declKey(s: Schema | undefined, depth = 0): string | undefined {
  if (s === undefined || s === null || typeof s !== 'object') return '-';
  if (depth > 1000) return undefined;
  let key = `${keyPart(s.type)}|${keyPart(s.format)}|${s.nullable === true ? 'N' : ''}${s['x-kubernetes-int-or-string'] === true ? 'I' : ''}` +
    `${s['x-kubernetes-embedded-resource'] === true ? 'E' : ''}${s['x-kubernetes-preserve-unknown-fields'] === true ? 'P' : ''}` +
    `${s.default !== undefined ? 'D' : ''}|${keyPart(s.maxLength)}|${keyPart(s.maxItems)}|${keyPart(s.maxProperties)}`;
  if (Array.isArray(s.enum)) key += `|e${JSON.stringify(s.enum.filter((v) => typeof v === 'string'))}`;
  if (Array.isArray(s.required)) key += `|r${JSON.stringify(s.required)}`;
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) key += '|i[]';
    else {
      const k = declKey(s.items, depth + 1);
      if (k === undefined) return undefined;
      key += `|i{${k}}`;
    }
  }
  const ap = s.additionalProperties;
  if (ap !== undefined) {
    if (typeof ap !== 'object') key += `|a${keyPart(ap)}`;
    else {
      const k = declKey(ap, depth + 1);
      if (k === undefined) return undefined;
      key += `|a{${k}}`;
    }
  }
  if (s.properties !== undefined && s.properties !== null) {
    key += '|p{';
    for (const name of Object.keys(s.properties)) {
      const k = declKey(s.properties[name], depth + 1);
      if (k === undefined) return undefined;
      key += `${JSON.stringify(name)}:{${k}}`;
    }
    key += '}';
  }
  return key;
}

/**
 * The CEL type of a schema node as rules at that node see it: {@link schemaDeclType} with its object
 * types named `selfType<N>` (as the apiserver names them, so that no rule can depend on a name) and
 * `selfType<N>.<field>`. `undefined` when the node cannot be exposed to CEL.
 *
 * The declarations are remembered by the parts of the schema they depend on (not by its identity, so a
 * schema changed in place is declared anew): compiling many rules of one schema, or one CRD twice,
 * declares it once, and the checking environment built on a declaration is cached with it.
 */
export function ruleDeclType(schema: Schema, isResourceRoot: boolean): DeclType | undefined {
  const k = declKey(schema);
  if (k === undefined) {
    // Too deep to remember cheaply: declare it without caching (schemaDeclType reports what it can).
    const d = schemaDeclType(schema, isResourceRoot);
    return d === undefined ? undefined : assignTypeNames(d, selfTypeName());
  }
  const key = `${isResourceRoot ? 'r' : 'n'}${k}`;
  const cached = declCache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const d = schemaDeclType(schema, isResourceRoot);
  const named = d === undefined ? undefined : assignTypeNames(d, selfTypeName());
  declCache.set(key, named ?? null, key.length);
  return named;
}

/** Every object type in a tree, by name, with its fields' CEL types. */
export function collectObjectTypes(t: DeclType, out = new Map<string, Map<string, CelType>>()): Map<string, Map<string, CelType>> {
  if (t.fields !== undefined) {
    if (out.has(t.celType.name)) return out;
    out.set(t.celType.name, new Map([...t.fields].map(([k, f]) => [k, f.type.celType])));
    for (const f of t.fields.values()) collectObjectTypes(f.type, out);
  }
  if (t.elem !== undefined) collectObjectTypes(t.elem, out);
  return out;
}
