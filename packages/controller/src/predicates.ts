import type { KubeObject } from '@kubekit/core';

/**
 * Filters events before they reach the work queue, as controller-runtime's `predicate.Funcs`. A missing
 * function lets that kind of event through.
 */
export interface Predicate<T extends KubeObject = KubeObject> {
  create?(obj: T): boolean;
  update?(obj: T, old: T): boolean;
  delete?(obj: T): boolean;
}

/** Passes updates only when `metadata.generation` changed (spec changes of resources with a status subresource). */
export function generationChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return { update: (obj, old) => obj.metadata.generation !== old.metadata.generation };
}

/** Passes updates only when `metadata.resourceVersion` changed (drops resyncs). */
export function resourceVersionChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return { update: (obj, old) => obj.metadata.resourceVersion !== old.metadata.resourceVersion };
}

/** Passes updates only when the labels changed. */
export function labelsChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return { update: (obj, old) => !sameRecord(obj.metadata.labels, old.metadata.labels) };
}

/** Passes updates only when the annotations changed. */
export function annotationsChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return { update: (obj, old) => !sameRecord(obj.metadata.annotations, old.metadata.annotations) };
}

/** Passes an event when any of the predicates passes it. */
export function anyPredicate<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (obj) => predicates.some((p) => p.create?.(obj) ?? true),
    update: (obj, old) => predicates.some((p) => p.update?.(obj, old) ?? true),
    delete: (obj) => predicates.some((p) => p.delete?.(obj) ?? true),
  };
}

/** Passes an event when every predicate passes it. */
export function allPredicates<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (obj) => predicates.every((p) => p.create?.(obj) ?? true),
    update: (obj, old) => predicates.every((p) => p.update?.(obj, old) ?? true),
    delete: (obj) => predicates.every((p) => p.delete?.(obj) ?? true),
  };
}

function sameRecord(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (a![k] !== b?.[k]) return false;
  return true;
}
