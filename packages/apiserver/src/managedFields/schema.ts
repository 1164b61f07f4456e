/**
 * The types server-side apply walks objects with, in structured-merge-diff's terms: scalars, maps
 * (structs with declared fields and/or map elements; granular or atomic), lists (atomic, sets, or
 * associative by key fields) and the "deduced" type of `x-kubernetes-preserve-unknown-fields`
 * subtrees, whose shape comes from the value (maps are granular, lists atomic).
 *
 * Custom resources take theirs from the version's structural schema (`x-kubernetes-list-type`,
 * `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`), as the apiextensions-apiserver's type
 * converter does; built-in kinds from the patch strategies the embedded server knows
 * (strategicMergePatch.ts), with every object key a declared field except in the map-valued fields.
 *
 * @see https://github.com/kubernetes-sigs/structured-merge-diff/blob/master/schema/elements.go
 */
import type { JSONSchemaProps } from '@kubekit/crd';
import { listStrategy } from '../strategicMergePatch.js';
import { builtinKindSchema, itemSchema, referencedSchemaName, resolveSchema, type OpenAPISchema } from '../builtinSchemas.js';

/** A type of the walk. */
export type TypeNode = ScalarType | MapType | ListType | DeducedType | BuiltinType | OpenAPIType;

/** A scalar, or anything treated as one. */
export interface ScalarType { readonly kind: 'scalar' }

/** A map or struct. */
export interface MapType {
  readonly kind: 'map';
  /** The declared fields (struct members); their paths are members of an applied set only as leaves. */
  readonly fields?: ReadonlyMap<string, TypeNode>;
  /** The type of undeclared keys (map elements); undefined: undeclared keys are deduced. */
  readonly element?: TypeNode;
  /** `x-kubernetes-map-type: atomic`: owned and replaced as a whole. */
  readonly atomic: boolean;
  /** Defaults of the declared scalar fields (fill missing list-map keys, as `keyFieldsWithDefaults`). */
  readonly defaults?: ReadonlyMap<string, unknown>;
}

/** A list. */
export interface ListType {
  readonly kind: 'list';
  readonly element: TypeNode;
  /** `atomic` (replaced whole), `set` (items are `v:` values) or `map` (items are `k:` keys). */
  readonly listType: 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys`. */
  readonly keys: readonly string[];
  /** Defaults of key fields, used when an item omits them (`keyFieldsWithDefaults`). */
  readonly keyDefaults?: ReadonlyMap<string, unknown>;
}

/** The type of preserved unknown fields: the value decides (maps granular, lists atomic). */
export interface DeducedType { readonly kind: 'deduced' }

/** A position in a built-in kind's object, typed by field path (see {@link builtinChild}). */
export interface BuiltinType {
  readonly kind: 'builtin';
  /** The field path from the root (`[]` for a list element), abbreviated beyond the last three names. */
  readonly path: readonly string[];
  /** Whether the keys here are map keys (labels, data, ...), not declared fields. */
  readonly mapKeys: boolean;
}

/**
 * A position typed by a published OpenAPI v3 schema (the built-in kinds, from builtinSchemas.ts),
 * resolved one level at a time (schemas refer to themselves: JSONSchemaProps).
 */
export interface OpenAPIType {
  readonly kind: 'openapi';
  readonly schema: OpenAPISchema;
}

/** The scalar type (also atomic values of unknown shape). */
export const scalarType: ScalarType = { kind: 'scalar' };
/** The type of preserved unknown fields. */
export const deducedType: DeducedType = { kind: 'deduced' };

const stringMap: MapType = { kind: 'map', element: scalarType, atomic: false };

function struct(fields: Record<string, TypeNode>): MapType {
  return { kind: 'map', fields: new Map(Object.entries(fields)), atomic: false };
}

/** `metav1.ObjectMeta`, as its OpenAPI schema types it. */
export const objectMetaType: MapType = struct({
  name: scalarType, generateName: scalarType, namespace: scalarType, selfLink: scalarType, uid: scalarType,
  resourceVersion: scalarType, generation: scalarType, creationTimestamp: scalarType, deletionTimestamp: scalarType,
  deletionGracePeriodSeconds: scalarType, labels: stringMap, annotations: stringMap,
  ownerReferences: {
    kind: 'list', listType: 'map', keys: ['uid'],
    element: struct({ apiVersion: scalarType, kind: scalarType, name: scalarType, uid: scalarType, controller: scalarType, blockOwnerDeletion: scalarType }),
  },
  finalizers: { kind: 'list', listType: 'set', keys: [], element: scalarType },
  managedFields: { kind: 'list', listType: 'atomic', keys: [], element: deducedType },
});

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The type of a custom resource version from its structural schema: `apiVersion`, `kind` and
 * `metadata` (ObjectMeta) at the root, the schema's properties beside them. Iterative over the schema.
 */
export function typeFromStructuralSchema(schema: JSONSchemaProps | undefined): MapType {
  const root = convertSchema(schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as MapType;
  const fields = new Map<string, TypeNode>(root.kind === 'map' && root.fields !== undefined ? root.fields : []);
  fields.set('apiVersion', scalarType);
  fields.set('kind', scalarType);
  fields.set('metadata', objectMetaType);
  return { kind: 'map', fields, element: root.kind === 'map' ? root.element : deducedType, atomic: false, ...(root.kind === 'map' && root.defaults ? { defaults: root.defaults } : {}) };
}

interface Pending {
  schema: JSONSchemaProps;
  set: (t: TypeNode) => void;
}

/** Converts a schema without recursion: each node is built, then its children are filled in. */
function convertSchema(top: JSONSchemaProps): TypeNode {
  let result: TypeNode = deducedType;
  const stack: Pending[] = [{ schema: top, set: (t) => { result = t; } }];
  while (stack.length > 0) {
    const { schema: s, set } = stack.pop()!;
    const x = s as Record<string, unknown>;
    if (x['x-kubernetes-int-or-string'] === true) { set(scalarType); continue; }
    const type = s.type;
    const props = isRecord(s.properties) ? s.properties as Record<string, JSONSchemaProps> : undefined;
    const preserve = x['x-kubernetes-preserve-unknown-fields'] === true;
    const embedded = x['x-kubernetes-embedded-resource'] === true;
    if (type === 'array') {
      const lt = x['x-kubernetes-list-type'];
      const keys = Array.isArray(x['x-kubernetes-list-map-keys']) ? (x['x-kubernetes-list-map-keys'] as unknown[]).filter((k): k is string => typeof k === 'string') : [];
      const list: { kind: 'list'; element: TypeNode; listType: ListType['listType']; keys: readonly string[] } = {
        kind: 'list', element: deducedType, listType: lt === 'set' ? 'set' : lt === 'map' ? 'map' : 'atomic', keys,
      };
      set(list);
      if (isRecord(s.items)) stack.push({ schema: s.items as JSONSchemaProps, set: (t) => { list.element = t; } });
      continue;
    }
    if (type === 'object' || props !== undefined || embedded || (type === undefined && preserve)) {
      if (props === undefined && !embedded && !isRecord(s.additionalProperties) && (preserve || type === undefined)) { set(deducedType); continue; }
      const fields = new Map<string, TypeNode>();
      const defaults = new Map<string, unknown>();
      const map: { kind: 'map'; fields: Map<string, TypeNode>; element?: TypeNode; atomic: boolean; defaults?: Map<string, unknown> } = {
        kind: 'map', fields, atomic: x['x-kubernetes-map-type'] === 'atomic',
      };
      if (embedded) {
        fields.set('apiVersion', scalarType);
        fields.set('kind', scalarType);
        fields.set('metadata', objectMetaType);
      }
      if (preserve) map.element = deducedType;
      set(map);
      for (const [name, sub] of Object.entries(props ?? {})) {
        if (!isRecord(sub)) continue;
        if (Object.hasOwn(sub, 'default') && sub.type !== 'object' && sub.type !== 'array') defaults.set(name, sub.default);
        fields.set(name, scalarType);
        if (embedded && name === 'metadata') continue;
        stack.push({ schema: sub as JSONSchemaProps, set: (t) => { fields.set(name, t); } });
      }
      if (defaults.size > 0) map.defaults = defaults;
      if (isRecord(s.additionalProperties)) stack.push({ schema: s.additionalProperties as JSONSchemaProps, set: (t) => { map.element = t; } });
      else if (s.additionalProperties === true) map.element = deducedType;
      continue;
    }
    set(type === undefined ? deducedType : scalarType);
  }
  return result;
}

/** The map-valued fields of the built-in kinds (their keys are map keys, not declared fields). */
const builtinMapFields = new Set([
  'labels', 'annotations', 'data', 'binaryData', 'stringData', 'matchLabels', 'nodeSelector', 'limits', 'requests',
  'capacity', 'allocatable', 'hard', 'used', 'parameters', 'overhead',
  // CustomResourceDefinition schemas: JSONSchemaProps.properties is a map of schemas.
  'properties',
]);

/** The fields of the built-in kinds that are atomic maps: label selectors and node selectors (`+mapType=atomic`). */
const builtinAtomicFields = new Set(['selector', 'nodeSelector']);

/** Whether a built-in position is an atomic map. */
export function builtinAtomic(t: BuiltinType): boolean {
  return !t.mapKeys && t.path.length > 0 && builtinAtomicFields.has(t.path[t.path.length - 1]);
}

/** The root type of a built-in kind. */
export function builtinRootType(): BuiltinType {
  return { kind: 'builtin', path: [], mapKeys: false };
}

function extend(path: readonly string[], name: string): readonly string[] {
  // listStrategy looks at the last three names and, near the root, at the first; keep those.
  if (path.length < 4) return [...path, name];
  return ['…', path[path.length - 2], path[path.length - 1], name];
}

/** The type below a built-in position: a field (or map key) `name`. */
export function builtinChild(t: BuiltinType, name: string): TypeNode {
  if (t.path.length === 0 && name === 'metadata') return objectMetaType;
  // A map entry's value: typed by position like any struct (its own fields declared).
  if (t.mapKeys) return { kind: 'builtin', path: extend(t.path, '*'), mapKeys: false };
  const path = extend(t.path, name);
  return { kind: 'builtin', path, mapKeys: builtinMapFields.has(name) };
}

/** The list type at a built-in position holding an array. */
export function builtinList(t: BuiltinType): ListType {
  const element: BuiltinType = { kind: 'builtin', path: extend(t.path, '[]'), mapKeys: false };
  if (t.mapKeys) return { kind: 'list', listType: 'atomic', keys: [], element: deducedType };
  const strategy = listStrategy(t.path);
  if (strategy === 'set') return { kind: 'list', listType: 'set', keys: [], element: scalarType };
  if (strategy === undefined) return { kind: 'list', listType: 'atomic', keys: [], element };
  const field = t.path[t.path.length - 1];
  // The OpenAPI list-map keys add the protocol to the port lists' merge keys.
  if (field === 'ports') return { kind: 'list', listType: 'map', keys: [strategy.key, 'protocol'], keyDefaults: new Map([['protocol', 'TCP']]), element };
  return { kind: 'list', listType: 'map', keys: [strategy.key], element };
}

const resolvedOpenAPI = new WeakMap<OpenAPISchema, Exclude<TypeNode, OpenAPIType>>();
const rawExtension = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

/**
 * One level of an OpenAPI schema as a type, the way the apiserver's type converter reads it: objects
 * with `properties` declare fields, `additionalProperties` types map entries, `x-kubernetes-map-type:
 * atomic` makes the object atomic; arrays follow `x-kubernetes-list-type` (atomic when absent) and
 * `x-kubernetes-list-map-keys` (with the keys' defaults); `x-kubernetes-int-or-string` is a scalar, and
 * a schema that says nothing (`RawExtension`, preserved fields) is deduced from the value.
 */
export function resolveOpenAPI(t: OpenAPIType): Exclude<TypeNode, OpenAPIType> {
  const cached = resolvedOpenAPI.get(t.schema);
  if (cached !== undefined) return cached;
  const s = resolveSchema(t.schema);
  let out: Exclude<TypeNode, OpenAPIType>;
  const props = isRecord(s.properties) ? s.properties : undefined;
  // schemaconv hard-codes a RawExtension (a ControllerRevision's data) as untyped and atomic, whatever it holds.
  if (referencedSchemaName(t.schema) === rawExtension) out = scalarType;
  else if (s['x-kubernetes-int-or-string'] === true) out = scalarType;
  else if (s.type === 'array') {
    const items = itemSchema(s);
    const lt = s['x-kubernetes-list-type'];
    const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as unknown[]).filter((k): k is string => typeof k === 'string') : [];
    const keyDefaults = new Map<string, unknown>();
    const itemProps = items !== undefined && isRecord(items.properties) ? items.properties : undefined;
    for (const k of keys) {
      const ks = itemProps !== undefined && Object.hasOwn(itemProps, k) && isRecord(itemProps[k]) ? itemProps[k] : undefined;
      if (ks !== undefined && Object.hasOwn(ks, 'default')) keyDefaults.set(k, ks.default);
    }
    out = {
      kind: 'list', listType: lt === 'set' ? 'set' : lt === 'map' ? 'map' : 'atomic', keys,
      element: items === undefined ? deducedType : { kind: 'openapi', schema: items },
      ...(keyDefaults.size > 0 ? { keyDefaults } : {}),
    };
  } else if (s.type === 'object' || props !== undefined || isRecord(s.additionalProperties)) {
    const fields = new Map<string, TypeNode>();
    for (const [name, sub] of Object.entries(props ?? {})) if (isRecord(sub)) fields.set(name, { kind: 'openapi', schema: sub });
    const element: TypeNode | undefined = isRecord(s.additionalProperties) ? { kind: 'openapi', schema: s.additionalProperties }
      : s['x-kubernetes-preserve-unknown-fields'] === true || props === undefined ? deducedType : undefined;
    out = { kind: 'map', fields, ...(element !== undefined ? { element } : {}), atomic: s['x-kubernetes-map-type'] === 'atomic' };
  } else if (s.type === undefined) out = deducedType;
  else out = scalarType;
  resolvedOpenAPI.set(t.schema, out);
  return out;
}

/** A type that is not an unresolved OpenAPI position. */
export function concrete(t: TypeNode): Exclude<TypeNode, OpenAPIType> {
  return t.kind === 'openapi' ? resolveOpenAPI(t) : t;
}

/**
 * The type of a built-in kind: its published OpenAPI schema, or, for a kind without one, the patch
 * strategies of the embedded server ({@link builtinRootType}).
 */
export function builtinKindType(group: string, version: string, kind: string): TypeNode {
  const schema = builtinKindSchema({ group, version, kind });
  return schema === undefined ? builtinRootType() : { kind: 'openapi', schema };
}
