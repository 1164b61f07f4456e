import type { KubeObject, ObjectMeta } from '@kubekit/core';

/**
 * What kubekit needs of an object type: Kubernetes metadata. `KubeObject`, plain interfaces and
 * `@CustomResource` classes (which have no index signature) all fit.
 */
export interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

type Depth = [never, 0, 1, 2, 3, 4, 5];
type Scalar = string | number | bigint | boolean;

type Skipped = 'metadata' | 'apiVersion' | 'kind';

/** `T` without index signatures (`KubeObject` has one), keeping its declared properties. */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

type PathsOf<T, TPrefix extends string, TDepth extends number> = [TDepth] extends [never]
  ? never
  : PathsOfKnown<KnownKeys<T>, TPrefix, TDepth>;

type PathsOfKnown<T, TPrefix extends string, TDepth extends number> = {
  [K in keyof T & string]-?: TPrefix extends '' ? (K extends Skipped ? never : PathOf<T[K], K, TDepth>) : PathOf<T[K], `${TPrefix}.${K}`, TDepth>;
}[keyof T & string];

type PathOf<TValue, TPath extends string, TDepth extends number> =
  NonNullable<TValue> extends Scalar
    ? TPath
    : NonNullable<TValue> extends readonly unknown[]
      ? never
      : NonNullable<TValue> extends object
        ? PathsOf<NonNullable<TValue>, TPath, Depth[TDepth]>
        : never;

/**
 * The field paths of a resource type `T` that a field selector or `byField` may name: `metadata.name`,
 * `metadata.namespace`, and every scalar property reached through objects (not lists or maps), as
 * `spec.color`. For the untyped `KubeObject` it is any string.
 *
 * Which of them the server accepts is a run-time fact (the CRD's `selectableFields`); the type keeps
 * misspelt paths from compiling.
 */
export type FieldPath<T> = KubeObject extends T ? string : 'metadata.name' | 'metadata.namespace' | PathsOf<T, '', 5>;

/** A value a field selector compares with (selectors compare text; numbers and booleans print as Go does). */
export type FieldValue = string | number | bigint | boolean;

/** A field requirement: a value means `=`, `{ '!=': value }` means `!=`. */
export type FieldRequirementInput = FieldValue | { '!=': FieldValue };

/**
 * A field selector written as an object, typed by the resource: `{ 'spec.color': 'blue',
 * 'spec.size': { '!=': 'XL' } }` (terms ANDed).
 */
export type FieldSelectorSet<T> = { [P in FieldPath<T>]?: FieldRequirementInput };
