/**
 * The stored PriorityClasses as the `Priority` admission plugin reads them (its lister), and its choice of
 * the global default class; shared by the PriorityClass kind (schedulingKinds.ts) and the pod defaults
 * (podDefaults.ts).
 */
import type { KubeObject } from '@kubekit/core';
import { bucketOf, storeKey, type ObjectStore } from '../storage/objectStore.js';

/** The storage bucket of PriorityClasses. */
export const priorityClassesBucket = bucketOf({ group: 'scheduling.k8s.io', resource: 'priorityclasses' });

/** The stored PriorityClasses, as the `Priority` admission plugin's lister reads them. */
export interface PriorityClassLister {
  /** The class of that name, if stored. */
  get(name: string): KubeObject | undefined;
  /** Every stored class. */
  list(): Iterable<KubeObject>;
}

/** A {@link PriorityClassLister} over the server's store (always current: the embedded server has no informer lag). */
export function priorityClassLister(store: ObjectStore): PriorityClassLister {
  return {
    get: (name) => store.get(priorityClassesBucket, storeKey('', name)),
    list: () => [...store.values(priorityClassesBucket)].map(([, c]) => c),
  };
}

/** A class's `value` (an int32; 0 when absent, as Go decodes it). */
export function priorityValue(c: KubeObject): number {
  return typeof c.value === 'number' ? c.value : 0;
}

/**
 * The plugin's `getDefaultPriorityClass`: of the classes with `globalDefault: true`, the one with the
 * lowest value (more than one exist only after a race); the first listed among equal values.
 */
export function defaultPriorityClass(classes: PriorityClassLister): KubeObject | undefined {
  let chosen: KubeObject | undefined;
  for (const c of classes.list()) {
    if (c.globalDefault === true && (chosen === undefined || priorityValue(chosen) > priorityValue(c))) chosen = c;
  }
  return chosen;
}
