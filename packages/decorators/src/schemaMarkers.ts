/**
 * Small decorators that set one schema keyword each, for readability next to `@Field`. Each has an
 * equivalent `@Field` option under the CRD's own name.
 */
import { classOrPropertyDecorator, propertyDecorator } from './internal/decorate.js';
import type { ClassOrPropertyDecoratorFunction, PropertyDecoratorFunction } from './types.js';

function setKeyword(key: string, value: unknown, decorator: string): ClassOrPropertyDecoratorFunction {
  return classOrPropertyDecorator(
    decorator,
    (record) => {
      record.schema[key] = value;
    },
    (property) => {
      property.schema[key] = value;
    },
  );
}

/**
 * Sets `description` on a field or on a class's object schema (shown by `kubectl explain`).
 * `kubekit crd generate` also takes descriptions from doc comments; an explicit one wins.
 */
export function Description(text: string): ClassOrPropertyDecoratorFunction {
  return setKeyword('description', text, '@Description');
}

/**
 * Lists the property in its parent's `required`. Properties are optional unless marked: TC39 decorators
 * cannot see a declaration's `!` or `?`, and optional is the Kubernetes API convention.
 */
export function Required(): PropertyDecoratorFunction {
  return propertyDecorator('@Required', (property) => {
    property.required = true;
  });
}

/** Keeps the property out of its parent's `required` (the default; useful to override an inherited field). */
export function Optional(): PropertyDecoratorFunction {
  return propertyDecorator('@Optional', (property) => {
    property.required = false;
  });
}

/** `x-kubernetes-preserve-unknown-fields: true`: unknown fields below are kept instead of pruned. */
export function PreserveUnknownFields(): ClassOrPropertyDecoratorFunction {
  return setKeyword('x-kubernetes-preserve-unknown-fields', true, '@PreserveUnknownFields');
}

/**
 * `x-kubernetes-embedded-resource: true`: the value is a whole Kubernetes object (`apiVersion`, `kind`,
 * `metadata` validated). Combine with `@PreserveUnknownFields()` to keep the rest of it.
 */
export function EmbeddedResource(): ClassOrPropertyDecoratorFunction {
  return setKeyword('x-kubernetes-embedded-resource', true, '@EmbeddedResource');
}

/** `x-kubernetes-int-or-string: true`: the value is an integer or a string (no `type` then). */
export function IntOrString(): PropertyDecoratorFunction<number | bigint | string | null | undefined> {
  return propertyDecorator('@IntOrString', (property) => {
    property.schema['x-kubernetes-int-or-string'] = true;
  });
}

/**
 * `x-kubernetes-list-type` (and `x-kubernetes-list-map-keys` for `map` lists): how server-side apply
 * merges the list, and which items must be unique.
 */
export function ListType(type: 'atomic' | 'set'): PropertyDecoratorFunction<readonly unknown[] | null | undefined>;
export function ListType(type: 'map', mapKeys: string[]): PropertyDecoratorFunction<readonly unknown[] | null | undefined>;
export function ListType(type: 'atomic' | 'set' | 'map', mapKeys?: string[]): PropertyDecoratorFunction<readonly unknown[] | null | undefined> {
  return propertyDecorator('@ListType', (property) => {
    property.schema['x-kubernetes-list-type'] = type;
    if (mapKeys !== undefined) property.schema['x-kubernetes-list-map-keys'] = [...mapKeys];
  });
}

/** `x-kubernetes-map-type`: whether server-side apply merges an object or map key by key or as a whole. */
export function MapType(type: 'granular' | 'atomic'): ClassOrPropertyDecoratorFunction {
  return setKeyword('x-kubernetes-map-type', type, '@MapType');
}
