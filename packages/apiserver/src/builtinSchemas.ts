/**
 * The OpenAPI v3 component schemas of the built-in kinds, as kube-apiserver v1.34.4 publishes them in
 * `/openapi/v3/<group-version>` (descriptions included, as `kubectl explain` prints them), read from `fixtures/builtin-openapi.json`, and a
 * lookup over them: a kind's schema, a field's schema, and how a list or map merges
 * (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-patch-strategy`,
 * `x-kubernetes-patch-merge-key`, `x-kubernetes-map-type`), as server-side apply and strategic merge
 * patch need them.
 *
 * The fixture holds facts of the Kubernetes API, regenerated from a reference server by
 * `scripts/gen-builtin-openapi.mjs`; it holds every schema reachable from the served resources' paths.
 *
 * @see https://kubernetes.io/docs/reference/using-api/server-side-apply/#merge-strategy
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isObject } from './internal/own.js';

/** An OpenAPI v3 schema object as the apiserver publishes it (read-only: shared by every caller). */
export type OpenAPISchema = Readonly<Record<string, unknown>>;

/** A group, version and kind (`group` is `''` for the core group). */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** How the elements of a list or the entries of a map are merged by apply and strategic merge patch. */
export interface MergeSemantics {
  /** `x-kubernetes-list-type`: `atomic`, `set` or `map`; undefined where the schema says nothing (atomic). */
  listType?: 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys` of a `map` list. */
  listMapKeys?: readonly string[];
  /** `x-kubernetes-map-type` (`atomic` or `granular`) of an object. */
  mapType?: 'atomic' | 'granular';
  /** `x-kubernetes-patch-strategy` (`merge`, `retainKeys`, `merge,retainKeys`, `replace`). */
  patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key`. */
  patchMergeKey?: string;
}

interface Fixture {
  source: string;
  kinds: Record<string, string>;
  schemas: Record<string, OpenAPISchema>;
}

let loaded: { kinds: Map<string, string>; schemas: Map<string, OpenAPISchema> } | undefined;

function fixture(): { kinds: Map<string, string>; schemas: Map<string, OpenAPISchema> } {
  if (loaded === undefined) {
    // src/ and dist/ are both one level below the package root, where fixtures/ is.
    const text = readFileSync(fileURLToPath(new URL('../fixtures/builtin-openapi.json', import.meta.url)), 'utf8');
    const data = JSON.parse(text) as Fixture;
    loaded = { kinds: new Map(Object.entries(data.kinds)), schemas: new Map(Object.entries(data.schemas)) };
  }
  return loaded;
}

const refPrefix = '#/components/schemas/';

/** The component schemas of the built-in kinds and everything they reference, by component name. */
export function builtinOpenAPISchemas(): ReadonlyMap<string, OpenAPISchema> {
  return fixture().schemas;
}

/** The component name of a built-in kind's schema (`io.k8s.api.apps.v1.Deployment`), or undefined if not served. */
export function builtinSchemaName(gvk: GroupVersionKind): string | undefined {
  return fixture().kinds.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
}

/**
 * The schema of a built-in kind, or undefined for a kind the embedded server does not serve.
 *
 * @example
 * ```ts
 * const deployment = builtinKindSchema({ group: 'apps', version: 'v1', kind: 'Deployment' });
 * const containers = schemaAtPath(deployment!, ['spec', 'template', 'spec', 'containers']);
 * mergeSemantics(containers!); // { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' }
 * ```
 */
export function builtinKindSchema(gvk: GroupVersionKind): OpenAPISchema | undefined {
  const name = builtinSchemaName(gvk);
  return name === undefined ? undefined : fixture().schemas.get(name);
}

/** The component schema a schema refers to (`io.k8s.apimachinery.pkg.runtime.RawExtension`), or undefined for one without a reference. */
export function referencedSchemaName(schema: OpenAPISchema): string | undefined {
  const ref = referenced(schema);
  return ref === undefined ? undefined : ref.startsWith(refPrefix) ? ref.slice(refPrefix.length) : ref;
}

function referenced(schema: OpenAPISchema): string | undefined {
  if (typeof schema.$ref === 'string') return schema.$ref;
  // A field of a named type is published as `allOf: [{$ref}]` next to its own default and extensions.
  const allOf = schema.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && typeof allOf[0].$ref === 'string') return allOf[0].$ref;
  return undefined;
}

/**
 * The schema with its reference followed: the referenced definition, overlaid with the referring
 * schema's own keywords (a field's `x-kubernetes-*` extensions and default). Schemas without a
 * reference come back as they are; a reference to an unknown component throws.
 */
export function resolveSchema(schema: OpenAPISchema): OpenAPISchema {
  const cached = resolved.get(schema);
  if (cached !== undefined) return cached;
  const out = resolveUncached(schema);
  resolved.set(schema, out);
  return out;
}

/** Resolved schemas by their referring schema (the fixture's objects live as long as the process). */
const resolved = new WeakMap<OpenAPISchema, OpenAPISchema>();

function resolveUncached(schema: OpenAPISchema): OpenAPISchema {
  let current = schema;
  for (let depth = 0; depth < 16; depth++) {
    const ref = referenced(current);
    if (ref === undefined) return current;
    const name = ref.startsWith(refPrefix) ? ref.slice(refPrefix.length) : ref;
    const target = fixture().schemas.get(name);
    if (target === undefined) throw new Error(`OpenAPI schema reference ${ref} names no built-in component schema`);
    const own: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(current)) if (k !== '$ref' && k !== 'allOf') own[k] = v;
    current = { ...target, ...own };
  }
  throw new Error('OpenAPI schema references nested more than 16 levels');
}

/** The schema of the field `name` of an object schema (its property, or its `additionalProperties`), resolved. */
export function propertySchema(schema: OpenAPISchema, name: string): OpenAPISchema | undefined {
  const s = resolveSchema(schema);
  const props = s.properties;
  if (isObject(props) && Object.hasOwn(props, name) && isObject(props[name])) return resolveSchema(props[name]);
  return isObject(s.additionalProperties) ? resolveSchema(s.additionalProperties) : undefined;
}

/** The schema of the elements of an array schema, resolved. */
export function itemSchema(schema: OpenAPISchema): OpenAPISchema | undefined {
  const items = resolveSchema(schema).items;
  return isObject(items) ? resolveSchema(items) : undefined;
}

/**
 * The schema at a path of field names below `schema`; `[]` steps into the elements of a list.
 * Undefined where the path leaves the schema.
 */
export function schemaAtPath(schema: OpenAPISchema, path: readonly string[]): OpenAPISchema | undefined {
  let current: OpenAPISchema | undefined = resolveSchema(schema);
  for (const step of path) {
    if (current === undefined) return undefined;
    current = step === '[]' ? itemSchema(current) : propertySchema(current, step);
  }
  return current;
}

/** How the list or map a schema describes merges (its `x-kubernetes-*` merge extensions). */
export function mergeSemantics(schema: OpenAPISchema): MergeSemantics {
  const out: MergeSemantics = {};
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map') out.listType = listType;
  const keys = schema['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys) && keys.every((k) => typeof k === 'string')) out.listMapKeys = keys;
  const mapType = schema['x-kubernetes-map-type'];
  if (mapType === 'atomic' || mapType === 'granular') out.mapType = mapType;
  if (typeof schema['x-kubernetes-patch-strategy'] === 'string') out.patchStrategy = schema['x-kubernetes-patch-strategy'];
  if (typeof schema['x-kubernetes-patch-merge-key'] === 'string') out.patchMergeKey = schema['x-kubernetes-patch-merge-key'];
  return out;
}

/**
 * The named component schemas and every component they reference, transitively, keyed by name (the
 * `components.schemas` an OpenAPI document needs for them). Names that are not built-in components are skipped.
 */
export function builtinSchemaClosure(names: Iterable<string>): Record<string, OpenAPISchema> {
  const schemas = fixture().schemas;
  const out: Record<string, OpenAPISchema> = {};
  const queue = [...names];
  // Bounded by the fixture's size: each component is visited once.
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (Object.hasOwn(out, name)) continue;
    const schema = schemas.get(name);
    if (schema === undefined) continue;
    out[name] = schema;
    collectRefs(schema, queue, 0);
  }
  return out;
}

function collectRefs(value: unknown, into: string[], depth: number): void {
  if (depth > 64) throw new Error('OpenAPI schema nested more than 64 levels');
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into, depth + 1);
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.push(v.startsWith(refPrefix) ? v.slice(refPrefix.length) : v);
      else collectRefs(v, into, depth + 1);
    }
  }
}
