import { escapeFieldValue } from '@kubekit/selectors';
import { KubeError } from '@kubekit/core';
import { lookupRecord } from './internal/metadata.js';
import { buildVersion } from './internal/schemaBuilder.js';
import type { selectableBrand } from './selectable.js';
import type { ClassRef } from './types.js';

type Depth = [never, 0, 1, 2, 3, 4, 5, 6, 7];
type Scalar = string | number | bigint | boolean;
type Skipped = 'apiVersion' | 'kind' | 'metadata';

/** `[path, value type]` pairs of the scalar properties of `T` below `TPrefix`, through objects (not lists or maps). */
type ScalarEntries<T, TPrefix extends string, TDepth extends number, TOnlyBranded extends boolean> = [TDepth] extends [never]
  ? never
  : {
      [K in keyof T & string]-?: string extends K
        ? never
        : TPrefix extends '' ? (K extends Skipped ? never : Entry<T[K], `${K}`, TDepth, TOnlyBranded>) : Entry<T[K], `${TPrefix}.${K}`, TDepth, TOnlyBranded>;
    }[keyof T & string];

type Entry<TValue, TPath extends string, TDepth extends number, TOnlyBranded extends boolean> =
  NonNullable<TValue> extends Scalar
    ? TOnlyBranded extends true
      ? typeof selectableBrand extends keyof NonNullable<TValue> ? [TPath, NonNullable<TValue>] : never
      : [TPath, NonNullable<TValue>]
    : NonNullable<TValue> extends readonly unknown[]
      ? never
      : NonNullable<TValue> extends object
        ? ScalarEntries<NonNullable<TValue>, TPath, Depth[TDepth], TOnlyBranded>
        : never;

type BrandedEntries<T> = ScalarEntries<T, '', 7, true>;
type SelectableEntries<T> = [BrandedEntries<T>] extends [never] ? ScalarEntries<T, '', 7, false> : BrandedEntries<T>;

/**
 * The field labels the compiler accepts for resource type `T`: `metadata.name`, `metadata.namespace`,
 * and the properties declared {@link Selectable}`<…>`; when none is, every scalar property (so a
 * misspelt or undeclared path never compiles, and {@link fieldSelector} checks the rest at run time).
 */
export type SelectableFieldPath<T> = 'metadata.name' | 'metadata.namespace' | SelectableEntries<T>[0];

/** The values a selector may compare a field of type `T` with (selectors compare text). */
export type SelectorValue<T> = T extends string
  ? T
  : T extends boolean
    ? boolean | 'true' | 'false'
    : T extends number | bigint
      ? number | bigint | `${bigint}`
      : string;

type ValueAt<T, TPath> = TPath extends 'metadata.name' | 'metadata.namespace'
  ? string
  : Extract<SelectableEntries<T>, [TPath, unknown]>[1] extends infer V
    ? SelectorValue<V extends { readonly [selectableBrand]?: infer B } ? (B extends Scalar ? B : V) : V>
    : never;

/** A requirement on one field: a value means `=`, `{ '!=': value }` means `!=`. */
export type FieldRequirement<TValue> = TValue | { '!=': TValue };

/** The requirements {@link fieldSelector} takes for resources of type `T`, by field label. */
export type FieldSelectorSet<T> = { [P in SelectableFieldPath<T>]?: FieldRequirement<ValueAt<T, P>> };


function valueText(value: unknown, label: string): string {
  switch (typeof value) {
    case 'string': return value;
    case 'boolean':
    case 'bigint': return String(value);
    case 'number':
      if (Number.isInteger(value)) return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
      break;
    default: break;
  }
  throw new TypeError(`fieldSelector: the value for ${label} must be a string, an integer or a boolean, got ${String(value)}`);
}

const selectableCache = new WeakMap<object, { labels: Set<string>; namespaced: boolean }>();

function selectableLabels(resource: ClassRef): { labels: Set<string>; namespaced: boolean } {
  const cached = selectableCache.get(resource);
  if (cached !== undefined) return cached;
  const record = lookupRecord(resource);
  if (record?.resource === undefined) throw new TypeError(`${resource.name} is not decorated with @CustomResource`);
  const built = buildVersion(record, undefined);
  const namespaced = record.resource.scope !== 'Cluster';
  const labels = new Set(['metadata.name', ...(namespaced ? ['metadata.namespace'] : []), ...built.selectableFields.map((f) => f.jsonPath.slice(1))]);
  const entry = { labels, namespaced };
  selectableCache.set(resource, entry);
  return entry;
}

/**
 * The canonical field selector text (terms sorted, values escaped, as the apiserver prints a parsed
 * selector) for requirements on a `@CustomResource` class's fields. The compiler accepts only field
 * labels of the class (see {@link SelectableFieldPath}); at run time, a label the apiserver would not
 * accept for this version throws its error.
 *
 * @throws KubeError (`BadRequest`) `field label not supported: <label>` for a label the version does not declare
 * @example
 * ```ts
 * fieldSelector(Shirt, { 'spec.color': 'blue', 'spec.size': { '!=': 'XL' } }); // 'spec.color=blue,spec.size!=XL'
 * // @ts-expect-error — misspelt
 * fieldSelector(Shirt, { 'spec.colour': 'blue' });
 * ```
 */
export function fieldSelector<TClass extends ClassRef>(resource: TClass, requirements: FieldSelectorSet<InstanceType<TClass>>): string {
  const { labels } = selectableLabels(resource);
  const terms: string[] = [];
  for (const [label, requirement] of Object.entries(requirements as Record<string, unknown>)) {
    if (requirement === undefined) continue;
    if (!labels.has(label)) throw new KubeError('BadRequest', `field label not supported: ${label}`);
    if (requirement !== null && typeof requirement === 'object' && '!=' in requirement) {
      terms.push(`${label}!=${escapeFieldValue(valueText((requirement as Record<string, unknown>)['!='], label))}`);
    } else {
      terms.push(`${label}=${escapeFieldValue(valueText(requirement, label))}`);
    }
  }
  return terms.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(',');
}
