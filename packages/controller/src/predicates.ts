import type { KubeObject } from '@kubekit/core';

/**
 * Filters events before they reach the work queue, as controller-runtime's `predicate.Funcs`. A missing
 * function lets that kind of event through.
 */
export interface Predicate<T extends KubeObject = KubeObject> {
  /** Whether an added object (also each object of the initial list) is enqueued. */
  create?(obj: T): boolean;
  /** Whether an update is enqueued, given the new and the previous object. */
  update?(obj: T, old: T): boolean;
  /** Whether a deleted object (or one that left the informer's selection) is enqueued. */
  delete?(obj: T): boolean;
}

/**
 * A built-in predicate, usable both as it is and called: `.for(shirts, generationChangedPredicate)` and
 * `.for(shirts, generationChangedPredicate())` filter the same way (controller-runtime writes
 * `predicate.GenerationChangedPredicate{}`; calling is kept for kubekit code written before).
 */
export type PredicateFactory = (<T extends KubeObject>() => Predicate<T>) & Predicate<KubeObject>;

function predicateFactory(predicate: Predicate<KubeObject>): PredicateFactory {
  const call = <T extends KubeObject>(): Predicate<T> => predicate;
  return Object.assign(call, predicate);
}

/** Passes updates only when `metadata.generation` changed (spec changes of resources with a status subresource). */
export const generationChangedPredicate: PredicateFactory = predicateFactory({
  update: (obj, old) => obj.metadata.generation !== old.metadata.generation,
});

/** Passes updates only when `metadata.resourceVersion` changed (drops resyncs). */
export const resourceVersionChangedPredicate: PredicateFactory = predicateFactory({
  update: (obj, old) => obj.metadata.resourceVersion !== old.metadata.resourceVersion,
});

/** Passes updates only when the labels changed. */
export const labelsChangedPredicate: PredicateFactory = predicateFactory({
  update: (obj, old) => !sameRecord(obj.metadata.labels, old.metadata.labels),
});

/** Passes updates only when the annotations changed. */
export const annotationsChangedPredicate: PredicateFactory = predicateFactory({
  update: (obj, old) => !sameRecord(obj.metadata.annotations, old.metadata.annotations),
});

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
