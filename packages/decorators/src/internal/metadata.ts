/**
 * Where the decorators keep what they learn about a class, for both decorator flavours.
 *
 * TC39 standard decorators receive `context.metadata`, an object that the compiled class exposes as
 * `Class[Symbol.metadata]` once it is defined (and whose prototype is the parent class's metadata).
 * Node 20 and 22 do not define `Symbol.metadata`, and TypeScript's down-levelled output only creates
 * the metadata object when the symbol exists, so this module defines it (as
 * `Symbol.for('Symbol.metadata')`, the same symbol esbuild/tsx fall back to) when it is imported.
 * Every decorator module imports this one, so importing any decorator is enough, and ES module
 * evaluation order guarantees it runs before the importing module defines its classes.
 *
 * Legacy (`experimentalDecorators`) decorators receive the prototype (or the constructor) instead; their
 * records live in a WeakMap keyed by constructor.
 */
import type { ValidationRule } from '@kubekit/crd';
import type { PrinterColumnOptions } from '../printerColumn.js';
import type { ClassRef, TypeThunk } from '../types.js';

const symbolWithMetadata = Symbol as unknown as { metadata?: symbol };
symbolWithMetadata.metadata ??= Symbol.for('Symbol.metadata');

/** `Symbol.metadata`, defined by this module when the runtime lacks it. */
export const metadataSymbol: symbol = symbolWithMetadata.metadata;

/** Our key inside a TC39 metadata object. */
const recordKey = Symbol.for('kubekit.decorators.record');

/** What is known about one decorated property. */
export interface PropertyRecord {
  readonly name: string;
  /** Schema keywords, merged from every decorator on the property (later decorators win per key). */
  readonly schema: Record<string, unknown>;
  /** The nested class (or array of it) given as `@Field(() => X)`. */
  type?: TypeThunk;
  required?: boolean;
  /** Set by `@Selectable()`. */
  selectable: boolean;
  readonly printerColumns: PrinterColumnOptions[];
  readonly validations: ValidationRule[];
}

/** Options given to `@CustomResource`, kept as given. */
export type ResourceRecord = Record<string, unknown>;

/** What is known about one decorated class. */
export interface ClassRecord {
  /** The record of the parent class, for inherited properties. */
  readonly parent: ClassRecord | undefined;
  className: string;
  readonly properties: Map<string, PropertyRecord>;
  resource?: ResourceRecord;
  /** Class-level schema keywords (`@Description`, `@PreserveUnknownFields`, … on the class). */
  readonly schema: Record<string, unknown>;
  readonly validations: ValidationRule[];
  readonly printerColumns: (PrinterColumnOptions & { jsonPath: string })[];
  readonly selectableFields: { jsonPath: string }[];
  /** Set by `hubAndSpokeConversion`: the kind is converted by a webhook, with this class name's version as hub. */
  conversion?: { hub: string };
}

function newRecord(parent: ClassRecord | undefined): ClassRecord {
  return {
    parent,
    className: '',
    properties: new Map(),
    schema: {},
    validations: [],
    printerColumns: [],
    selectableFields: [],
  };
}

/** The record a TC39 decorator writes to: the metadata object's own one, created on first use. */
export function recordFromMetadata(metadata: DecoratorMetadataObject | undefined, what: string): ClassRecord {
  if (metadata === undefined || metadata === null) {
    throw new TypeError(
      `${what}: the decorator context has no metadata object; Symbol.metadata must be defined before ` +
        'decorated classes are. Import @kubekit/decorators before defining the class (it defines ' +
        "Symbol.metadata ??= Symbol.for('Symbol.metadata') when imported).",
    );
  }
  const bag = metadata as Record<symbol, unknown>;
  if (Object.hasOwn(bag, recordKey)) return bag[recordKey] as ClassRecord;
  const inherited = bag[recordKey] as ClassRecord | undefined;
  const record = newRecord(inherited);
  bag[recordKey] = record;
  return record;
}

/**
 * Legacy records, shared through `globalThis` so that two copies of this package (a CLI's and a
 * project's) see each other's classes, as TC39 records are shared through `Symbol.for` keys.
 */
const legacyKey = Symbol.for('kubekit.decorators.legacyRecords');
const globalBag = globalThis as unknown as Record<symbol, WeakMap<object, ClassRecord> | undefined>;
const legacyRecords: WeakMap<object, ClassRecord> = (globalBag[legacyKey] ??= new WeakMap<object, ClassRecord>());

/** The record a legacy decorator writes to, keyed by constructor. */
export function recordFromConstructor(ctor: object): ClassRecord {
  let record = legacyRecords.get(ctor);
  if (record === undefined) {
    const parentCtor = Object.getPrototypeOf(ctor) as object | null;
    const parent = parentCtor === null || parentCtor === Function.prototype ? undefined : lookupRecord(parentCtor);
    record = newRecord(parent);
    legacyRecords.set(ctor, record);
  }
  return record;
}

/** The record of a class, whichever decorator flavour wrote it; `undefined` for undecorated classes. */
export function lookupRecord(ctor: object): ClassRecord | undefined {
  const legacy = legacyRecords.get(ctor);
  if (legacy !== undefined) return legacy;
  if (!Object.hasOwn(ctor, metadataSymbol)) {
    const parentCtor = Object.getPrototypeOf(ctor) as object | null;
    return parentCtor === null || parentCtor === Function.prototype ? undefined : lookupRecord(parentCtor);
  }
  const metadata = (ctor as Record<symbol, unknown>)[metadataSymbol] as Record<symbol, unknown> | null | undefined;
  const record = metadata?.[recordKey] as ClassRecord | undefined;
  if (record !== undefined && record.className === '') record.className = className(ctor);
  // TC39 field decorators do not see their class; name the ancestors' records from the prototype chain.
  for (let r = record?.parent, c = Object.getPrototypeOf(ctor) as object | null; r !== undefined && c !== null; c = Object.getPrototypeOf(c) as object | null) {
    const own = Object.hasOwn(c, metadataSymbol) ? ((c as Record<symbol, unknown>)[metadataSymbol] as Record<symbol, unknown> | null)?.[recordKey] : undefined;
    if (own !== r) continue;
    if (r.className === '') r.className = className(c);
    r = r.parent;
  }
  return record;
}

/** The name of a class, for messages. */
export function className(ctor: object): string {
  const name = (ctor as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : '(anonymous class)';
}

/** The record of a property, created on first use (keeping declaration order). */
export function propertyRecord(record: ClassRecord, name: string): PropertyRecord {
  let prop = record.properties.get(name);
  if (prop === undefined) {
    prop = { name, schema: {}, selectable: false, printerColumns: [], validations: [] };
    record.properties.set(name, prop);
  }
  return prop;
}

/**
 * All properties of a class, inherited ones first. A subclass's decorators on an inherited property
 * refine it: schema keywords overlay the parent's, `required` and the nested type replace the
 * parent's when set, CEL rules add up, printer columns replace the parent's when given.
 */
export function allProperties(record: ClassRecord): PropertyRecord[] {
  const chain: ClassRecord[] = [];
  for (let r: ClassRecord | undefined = record; r !== undefined; r = r.parent) chain.unshift(r);
  const merged = new Map<string, PropertyRecord>();
  for (const r of chain) {
    for (const [name, prop] of r.properties) {
      const inherited = merged.get(name);
      if (inherited === undefined) {
        merged.set(name, prop);
        continue;
      }
      merged.set(name, {
        name,
        schema: { ...inherited.schema, ...prop.schema },
        type: prop.type ?? inherited.type,
        required: prop.required ?? inherited.required,
        selectable: prop.selectable || inherited.selectable,
        printerColumns: prop.printerColumns.length > 0 ? prop.printerColumns : inherited.printerColumns,
        validations: [...inherited.validations, ...prop.validations],
      });
    }
  }
  return [...merged.values()];
}

/** Whether a value is a class record's owner: a constructor. */
export function isClassRef(value: unknown): value is ClassRef {
  return typeof value === 'function';
}

/** Copies options into a property record; `required` goes to the record, everything else to the schema. */
export function mergeOptions(property: PropertyRecord, options: object | undefined): void {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object') throw new TypeError(`@Field options of ${property.name} must be an object`);
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (key === 'required') property.required = value === true;
    else if (key === 'x-kubernetes-validations' && Array.isArray(value)) property.validations.push(...(value as ValidationRule[]));
    else property.schema[key] = value;
  }
}
