/**
 * The few controllers a real control plane runs that operators observe through the API:
 *
 * - CRD naming and establishing: `status.acceptedNames` and the `NamesAccepted` and `Established`
 *   conditions (or `NamesAccepted=False` with the conflict);
 * - CRD finalization: a deleted CRD's objects are deleted, then the
 *   `customresourcecleanup.apiextensions.k8s.io` finalizer is removed and the CRD goes;
 * - namespace finalization: a deleted namespace's objects are deleted, then the namespace goes;
 * - PersistentVolumeClaim protection: a deleted claim's `kubernetes.io/pvc-protection` finalizer is
 *   removed once no Pod that has not finished uses it (the kube-controller-manager's pvc-protection
 *   controller; the admission plugin that adds the finalizer is the claim's `prepareForCreate`).
 *
 * Owner references are acted on by the garbage collector (garbageCollector.ts).
 *
 * Work is queued by key and done one item at a time, off the write path.
 */
import type { KubeObject } from '@kubekit/core';
import type { CustomResourceDefinition } from '@kubekit/crd';
import type { ResourceCatalog } from './catalog.js';
import { crdBucket, nameConflict } from './crdRegistry.js';
import { customResourceCleanupFinalizer, setCondition } from './crdResource.js';
import { timestamp } from './objectMeta.js';
import { storedResourceOf, type ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { storeKey, type StoreEvent } from './storage/objectStore.js';
import { cloneJSON, isObject } from './internal/own.js';
import { pvcProtectionFinalizer } from './internal/claimProtection.js';
import { WorkLoop } from './internal/workLoop.js';

const namespacesBucket = '/namespaces';
const crdGR = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };
const namespaceGR = { group: '', resource: 'namespaces' };
const claimGR = { group: '', resource: 'persistentvolumeclaims' };
const claimsBucket = '/persistentvolumeclaims';
const podsBucket = '/pods';

/** Whether a Pod mounts the claim (`spec.volumes[].persistentVolumeClaim.claimName`). */
function podUsesClaim(pod: KubeObject, claim: string): boolean {
  const volumes = isObject(pod.spec) && Array.isArray(pod.spec.volumes) ? pod.spec.volumes : [];
  return volumes.some((v) => isObject(v) && isObject(v.persistentVolumeClaim) && v.persistentVolumeClaim.claimName === claim);
}

/** See the file comment. */
export class Controllers {
  private readonly loop = new WorkLoop((key) => {
    if (key.startsWith('crd:')) return this.reconcileCRD(key.slice(4));
    if (key.startsWith('pvc:')) return this.reconcileClaim(key.slice(4));
    return this.reconcileNamespace(key.slice(3));
  });
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: ServerContext, private readonly catalog: ResourceCatalog) {
    this.unsubscribe = ctx.store.subscribe((e) => this.observe(e));
    for (const crd of catalog.crds.definitions()) this.loop.enqueue(`crd:${crd.metadata.name ?? ''}`);
    for (const [name] of ctx.store.values(namespacesBucket)) this.loop.enqueue(`ns:${name}`);
    for (const [key, o] of ctx.store.values(claimsBucket)) if (o.metadata.deletionTimestamp !== undefined) this.loop.enqueue(`pvc:${key}`);
  }

  /** Stops the controllers; resolves once the item in flight, if any, is done. */
  close(): Promise<void> {
    this.unsubscribe();
    return this.loop.close();
  }

  /** Whether no work is queued or running. */
  isIdle(): boolean {
    return this.loop.isIdle();
  }

  /** Resolves once no work is queued or running. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  private observe(e: StoreEvent): void {
    if (e.bucket === crdBucket) {
      this.loop.enqueue(`crd:${e.key}`);
      return;
    }
    if (e.bucket === namespacesBucket) {
      this.loop.enqueue(`ns:${e.key}`);
      return;
    }
    const ns = e.object.metadata.namespace ?? '';
    if (e.bucket === claimsBucket && e.type !== 'DELETED' && e.object.metadata.deletionTimestamp !== undefined) this.loop.enqueue(`pvc:${e.key}`);
    if (e.bucket === podsBucket) {
      // A pod that finishes or goes may release the deleting claims of its namespace.
      for (const [key, o] of this.ctx.store.values(claimsBucket)) if (o.metadata.namespace === ns && o.metadata.deletionTimestamp !== undefined) this.loop.enqueue(`pvc:${key}`);
    }
    if (e.type === 'DELETED' && ns !== '') {
      const nsObj = this.ctx.store.get(namespacesBucket, ns);
      if (nsObj?.metadata.deletionTimestamp !== undefined) this.loop.enqueue(`ns:${ns}`);
    }
    if (e.type === 'DELETED') {
      for (const r of this.catalog.crds.served()) if (r.bucket === e.bucket && r.crd.metadata.deletionTimestamp !== undefined) this.loop.enqueue(`crd:${r.crd.metadata.name ?? ''}`);
    }
  }

  private async reconcileCRD(name: string): Promise<void> {
    const { store, clock } = this.ctx;
    const stored = store.get(crdBucket, name);
    if (stored === undefined) return;
    const crd = stored as unknown as CustomResourceDefinition;
    const now = timestamp(clock.now());
    if (stored.metadata.deletionTimestamp !== undefined) {
      await this.finalizeCRD(crd, now);
      return;
    }
    const next = cloneJSON(crd);
    const conflict = nameConflict(crd, this.catalog.crds.definitions());
    if (conflict === undefined) {
      next.status ??= {};
      next.status.acceptedNames = cloneJSON(crd.spec.names);
      setCondition(next, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, now);
      setCondition(next, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now);
    } else {
      setCondition(next, { type: 'NamesAccepted', status: 'False', reason: 'NameConflict', message: conflict }, now);
      setCondition(next, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
    }
    if (JSON.stringify(next.status) === JSON.stringify(crd.status)) return;
    await store.update(crdGR, name, name, next as unknown as KubeObject, stored.metadata.resourceVersion).durable;
  }

  private async finalizeCRD(crd: CustomResourceDefinition, now: string): Promise<void> {
    const { store } = this.ctx;
    const name = crd.metadata.name ?? '';
    if (!(crd.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer)) return;
    const runtime = this.catalog.crds.runtime(name);
    if (runtime !== undefined) {
      const type = runtime.types[0];
      const remaining = await this.deleteAll(type, undefined, now);
      if (remaining > 0) return;
    }
    const current = store.get(crdBucket, name);
    if (current === undefined) return;
    const finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== customResourceCleanupFinalizer);
    if (finalizers.length === 0) {
      await store.delete(crdGR, name, name, { rv: current.metadata.resourceVersion }).durable;
      return;
    }
    const next = cloneJSON(current) as unknown as CustomResourceDefinition;
    next.metadata.finalizers = finalizers;
    setCondition(next, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionCompleted', message: 'removed all instances' }, now);
    await store.update(crdGR, name, name, next as unknown as KubeObject, current.metadata.resourceVersion).durable;
  }

  private async reconcileNamespace(name: string): Promise<void> {
    const { store, clock } = this.ctx;
    const ns = store.get(namespacesBucket, name);
    if (ns === undefined || ns.metadata.deletionTimestamp === undefined) return;
    const now = timestamp(clock.now());
    let remaining = 0;
    for (const type of this.catalog.namespacedBuckets()) remaining += await this.deleteAll(type, name, now);
    if (remaining > 0) return;
    const current = store.get(namespacesBucket, name);
    if (current === undefined) return;
    // The namespace controller finalizes its own `kubernetes` entry only: another in the spec (someone else's,
    // removed through /finalize) or any in the metadata keeps the namespace Terminating until it goes.
    const spec = isObject(current.spec) ? current.spec : {};
    const specFinalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    const others = specFinalizers.filter((f) => f !== 'kubernetes');
    if (others.length > 0 || (current.metadata.finalizers ?? []).length > 0) {
      if (others.length === specFinalizers.length) return;
      const next = cloneJSON(current);
      next.spec = { ...spec, finalizers: others };
      await store.update(namespaceGR, name, name, next, current.metadata.resourceVersion).durable;
      return;
    }
    await store.delete(namespaceGR, name, name, { rv: current.metadata.resourceVersion }).durable;
  }

  private async reconcileClaim(key: string): Promise<void> {
    const { store } = this.ctx;
    const claim = store.get(claimsBucket, key);
    if (claim === undefined || claim.metadata.deletionTimestamp === undefined) return;
    const finalizers = claim.metadata.finalizers ?? [];
    if (!finalizers.includes(pvcProtectionFinalizer)) return;
    const ns = claim.metadata.namespace ?? '';
    const name = claim.metadata.name ?? '';
    for (const [, pod] of store.values(podsBucket)) {
      if (pod.metadata.namespace !== ns || !podUsesClaim(pod, name)) continue;
      const phase = isObject(pod.status) ? pod.status.phase : undefined;
      if (phase !== 'Succeeded' && phase !== 'Failed') return;
    }
    const rest = finalizers.filter((f) => f !== pvcProtectionFinalizer);
    if (rest.length === 0) {
      await store.delete(claimGR, key, name, { rv: claim.metadata.resourceVersion }).durable;
      return;
    }
    const next = cloneJSON(claim);
    next.metadata.finalizers = rest;
    await store.update(claimGR, key, name, next, claim.metadata.resourceVersion).durable;
  }

  /**
   * Deletes every object of a type (in a namespace, or all): objects without finalizers go, others
   * are marked deleting. Returns how many remain.
   */
  private async deleteAll(type: ResourceType, namespace: string | undefined, now: string): Promise<number> {
    const { store } = this.ctx;
    const prefix = namespace === undefined ? '' : `${namespace}/`;
    let remaining = 0;
    for (const [key, o] of [...store.values(type.bucket)]) {
      if (prefix !== '' && !key.startsWith(prefix)) continue;
      const name = o.metadata.name ?? '';
      if ((o.metadata.finalizers ?? []).length === 0) {
        await store.delete(storedResourceOf(type), key, name, { rv: o.metadata.resourceVersion }).durable;
        continue;
      }
      remaining++;
      if (o.metadata.deletionTimestamp === undefined) {
        const marked = cloneJSON(o);
        marked.metadata.deletionTimestamp = now;
        marked.metadata.deletionGracePeriodSeconds = 0;
        if (typeof marked.metadata.generation === 'number' && marked.metadata.generation > 0) marked.metadata.generation++;
        await store.update(storedResourceOf(type), storeKey(o.metadata.namespace ?? '', name), name, marked, o.metadata.resourceVersion).durable;
      }
    }
    return remaining;
  }
}
