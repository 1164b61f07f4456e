import { KubeError, realClock, type Clock, type KubeObject, type OwnerReference } from '@kubekit/core';
import type { ResourceClient } from '@kubekit/informer';

/** Options of {@link retryOnConflict}. */
export interface RetryOnConflictOptions {
  /** How many attempts in all. @defaultValue 5 (client-go's `retry.DefaultRetry`) */
  steps?: number;
  /** The wait between attempts. @defaultValue 10 ms */
  delayMs?: number;
  /** @defaultValue realClock */
  clock?: Clock;
}

/**
 * Runs `fn` again while it fails with a `Conflict`, as client-go's `retry.RetryOnConflict`: `fn` must
 * read the latest state itself each time. Other errors, and the last conflict, are thrown.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, options: RetryOnConflictOptions = {}): Promise<T> {
  const steps = Math.max(1, options.steps ?? 5);
  const clock = options.clock ?? realClock;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof KubeError && err.reason === 'Conflict') || attempt >= steps) throw err;
      const base = options.delayMs ?? 10;
      await clock.sleep(base * (1 + Math.random() * 0.1));
    }
  }
}

/**
 * Reads the latest object, lets `mutate` change its status, and writes it through the `status`
 * subresource, retrying on conflicts. `mutate` may return `false` to skip the write (nothing changed).
 *
 * @returns the written object, or the latest one when nothing was written.
 */
export function updateStatus<T extends KubeObject>(
  client: ResourceClient<T>, namespace: string | undefined, name: string, mutate: (obj: T) => boolean | void, options: RetryOnConflictOptions = {},
): Promise<T> {
  return retryOnConflict(async () => {
    const current = await client.get(name, { namespace });
    const copy = structuredClone(current);
    if (mutate(copy) === false) return current;
    return client.updateStatus(copy);
  }, options);
}

/** Whether `obj` carries the finalizer. */
export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.finalizers?.includes(finalizer) ?? false;
}

/** Adds the finalizer (once), with optimistic concurrency on the object's resourceVersion. */
export function addFinalizer<T extends KubeObject>(client: ResourceClient<T>, obj: T, finalizer: string): Promise<T> {
  if (hasFinalizer(obj, finalizer)) return Promise.resolve(obj);
  return client.update({ ...obj, metadata: { ...obj.metadata, finalizers: [...(obj.metadata.finalizers ?? []), finalizer] } });
}

/** Removes the finalizer, with optimistic concurrency on the object's resourceVersion. */
export function removeFinalizer<T extends KubeObject>(client: ResourceClient<T>, obj: T, finalizer: string): Promise<T> {
  if (!hasFinalizer(obj, finalizer)) return Promise.resolve(obj);
  return client.update({ ...obj, metadata: { ...obj.metadata, finalizers: obj.metadata.finalizers!.filter((f) => f !== finalizer) } });
}

/** What {@link handleFinalizer} did. */
export type FinalizerOutcome = 'added' | 'finalized' | 'unchanged';

/**
 * The finalizer dance of a reconciler, in one call: an object that is not being deleted gets the
 * finalizer; one that is being deleted and still has it runs `cleanup` and then loses the finalizer, so
 * the server can remove it. When `cleanup` throws, the finalizer stays and the error propagates (the
 * reconcile is retried).
 */
export async function handleFinalizer<T extends KubeObject>(
  client: ResourceClient<T>, obj: T, finalizer: string, cleanup: (obj: T) => Promise<void> | void,
): Promise<FinalizerOutcome> {
  if (obj.metadata.deletionTimestamp === undefined) {
    if (hasFinalizer(obj, finalizer)) return 'unchanged';
    await addFinalizer(client, obj, finalizer);
    return 'added';
  }
  if (!hasFinalizer(obj, finalizer)) return 'unchanged';
  await cleanup(obj);
  await removeFinalizer(client, obj, finalizer);
  return 'finalized';
}

/** A controller owner reference to `owner` (`controller: true`, `blockOwnerDeletion: true`). */
export function controllerReference(owner: KubeObject): OwnerReference {
  const { apiVersion, kind } = owner;
  const { name, uid } = owner.metadata;
  if (!apiVersion || !kind || !name || !uid) throw KubeError.badRequest('the owner needs apiVersion, kind, metadata.name and metadata.uid');
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

/**
 * Makes `owner` the controller of `obj`, as controller-runtime's `SetControllerReference`: it sets
 * `obj.metadata.ownerReferences` **in place** (and returns `obj` itself, for chaining), replacing a
 * reference to the same owner (same API group, kind and name) and keeping the others. Cluster-scoped
 * objects cannot be owned by namespaced ones, owners must share the namespace, and an object has at
 * most one controller. Nothing changes when it throws.
 *
 * @throws KubeError (`Invalid`/`AlreadyExists`) naming the conflict.
 * @example
 * ```ts
 * const job = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'job-1' } };
 * setControllerReference(cronTab, job);   // job.metadata.ownerReferences now names cronTab
 * await configMaps.create(job);
 * ```
 */
export function setControllerReference<T extends KubeObject>(owner: KubeObject, obj: T): T {
  const ref = controllerReference(owner);
  const ownerNs = owner.metadata.namespace ?? '';
  const objNs = obj.metadata.namespace ?? '';
  if (ownerNs !== '' && objNs === '') throw new KubeError('Invalid', `cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNs}`);
  if (ownerNs !== '' && ownerNs !== objNs) throw new KubeError('Invalid', `cross-namespace owner references are disallowed, owner's namespace ${ownerNs}, obj's namespace ${objNs}`);
  const refs = obj.metadata.ownerReferences ?? [];
  const existing = refs.find((r) => r.controller === true);
  if (existing && !referSameObject(existing, ref)) {
    throw new KubeError('AlreadyExists', `Object ${objNs}/${obj.metadata.name ?? ''} is already owned by another ${existing.kind} controller ${existing.name}`);
  }
  const index = refs.findIndex((r) => referSameObject(r, ref));
  obj.metadata.ownerReferences = index < 0 ? [...refs, ref] : refs.map((r, i) => (i === index ? ref : r));
  return obj;
}

/** Whether two owner references name the same object: API group, kind and name (controller-runtime's `referSameObject`). */
function referSameObject(a: OwnerReference, b: OwnerReference): boolean {
  const group = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '');
  return group(a.apiVersion) === group(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}
