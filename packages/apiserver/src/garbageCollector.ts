/**
 * The garbage collector of owner references, as the kube-controller-manager's runs it
 * (pkg/controller/garbagecollector): a graph of owners and dependents kept from the store's writes,
 * and a queue of items to look at, worked off one at a time off the write path.
 *
 * - A dependent whose owners are all gone (no object of that kind, name and uid) is deleted, in the
 *   background (or in the foreground when an owner being deleted in the foreground waits for it and
 *   it has dependents of its own). A dependent with a remaining owner only loses its references to
 *   the absent owners and to owners waiting in the foreground.
 * - An owner deleted with `propagationPolicy: Orphan` carries the `orphan` finalizer: its references
 *   are removed from every dependent, then the finalizer, and the owner goes.
 * - An owner deleted with `propagationPolicy: Foreground` carries `foregroundDeletion`: its dependents
 *   are deleted, and once none with `blockOwnerDeletion: true` remains the finalizer is removed and
 *   the owner goes (its other dependents are then collected as dangling).
 *
 * Owner references to kinds the server does not serve, and from cluster-scoped dependents to
 * namespaced kinds, cannot be resolved: such an owner counts as present (upstream retries them
 * forever), so the dependent is never collected.
 */
import type { KubeObject, OwnerReference } from '@kubekit/core';
import type { ResourceCatalog } from './catalog.js';
import { deleteOne, foregroundFinalizer, orphanFinalizer } from './deleteHandler.js';
import { storedResourceOf, type ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { storeKey, type StoreEvent } from './storage/objectStore.js';
import { cloneJSON } from './internal/own.js';
import { WorkLoop } from './internal/workLoop.js';

/** An object in the graph: its bucket and key, its uid and its owner references. */
interface Node {
  bucket: string;
  key: string;
  uid: string;
  owners: readonly OwnerReference[];
}

function nodeId(bucket: string, key: string): string {
  return `${bucket}\0${key}`;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** See the file comment. */
export class GarbageCollector {
  /** Every object with a uid, by id. */
  private readonly nodes = new Map<string, Node>();
  /** Node ids by uid. */
  private readonly byUid = new Map<string, string>();
  /** Dependents' ids by owner uid. */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly loop = new WorkLoop((id) => this.process(id));
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: ServerContext, private readonly catalog: ResourceCatalog) {
    for (const { bucket, key, object } of ctx.store.entries()) this.add(bucket, key, object);
    this.unsubscribe = ctx.store.onCommit((e) => this.observe(e));
    for (const [id, node] of this.nodes) if (node.owners.length > 0) this.loop.enqueue(id);
    for (const [id, node] of this.nodes) if (this.waitsForGC(node)) this.loop.enqueue(id);
  }

  /** Stops collecting; resolves once the item in flight, if any, is done. */
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

  private add(bucket: string, key: string, object: KubeObject): void {
    const uid = object.metadata.uid;
    if (uid === undefined || uid === '') return;
    const id = nodeId(bucket, key);
    const owners = Array.isArray(object.metadata.ownerReferences) ? object.metadata.ownerReferences.filter((r) => typeof r?.uid === 'string') : [];
    this.nodes.set(id, { bucket, key, uid, owners });
    this.byUid.set(uid, id);
    for (const ref of owners) {
      let set = this.dependents.get(ref.uid);
      if (set === undefined) {
        set = new Set();
        this.dependents.set(ref.uid, set);
      }
      set.add(id);
    }
  }

  private remove(id: string): Node | undefined {
    const node = this.nodes.get(id);
    if (node === undefined) return undefined;
    this.nodes.delete(id);
    if (this.byUid.get(node.uid) === id) this.byUid.delete(node.uid);
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid);
      set?.delete(id);
      if (set?.size === 0) this.dependents.delete(ref.uid);
    }
    return node;
  }

  private observe(e: StoreEvent): void {
    const id = nodeId(e.bucket, e.key);
    const before = this.remove(id);
    if (e.type === 'DELETED') {
      // Its dependents may now be dangling; its owners may be waiting for it.
      for (const dep of this.dependents.get(e.object.metadata.uid ?? '') ?? []) this.loop.enqueue(dep);
      for (const ref of before?.owners ?? []) this.enqueueUid(ref.uid);
      return;
    }
    this.add(e.bucket, e.key, e.object);
    const node = this.nodes.get(id);
    if (node === undefined) return;
    const ownersChanged = before === undefined || before.owners.length !== node.owners.length || before.owners.some((r, i) => r.uid !== node.owners[i].uid || r.blockOwnerDeletion !== node.owners[i].blockOwnerDeletion);
    if (ownersChanged && node.owners.length > 0) this.loop.enqueue(id);
    if (ownersChanged) for (const ref of before?.owners ?? []) this.enqueueUid(ref.uid);
    if (this.waitsForGC(node) || e.object.metadata.deletionTimestamp !== undefined) this.loop.enqueue(id);
  }

  /** Whether an object carries a garbage collector finalizer. */
  private waitsForGC(node: Node): boolean {
    const obj = this.ctx.store.get(node.bucket, node.key);
    const fin = obj?.metadata.finalizers ?? [];
    return obj?.metadata.deletionTimestamp !== undefined && (fin.includes(orphanFinalizer) || fin.includes(foregroundFinalizer));
  }

  private enqueueUid(uid: string): void {
    const id = this.byUid.get(uid);
    if (id !== undefined) this.loop.enqueue(id);
  }

  private typeOfBucket(bucket: string): ResourceType | undefined {
    return this.catalog.all().find((t) => t.bucket === bucket);
  }

  private async process(id: string): Promise<void> {
    const node = this.nodes.get(id);
    if (node === undefined) return;
    const obj = this.ctx.store.get(node.bucket, node.key);
    if (obj === undefined) return;
    const fin = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp !== undefined) {
      if (fin.includes(orphanFinalizer)) await this.orphanDependents(node, obj);
      else if (fin.includes(foregroundFinalizer)) await this.deleteDependentsInForeground(node, obj);
      return;
    }
    if (node.owners.length > 0) await this.attemptToDelete(node, obj);
  }

  /** How an owner reference of a dependent resolves: present, absent, or present and waiting for its dependents. */
  private ownerState(dependent: Node, ref: OwnerReference): 'solid' | 'dangling' | 'waiting' {
    const group = groupOf(ref.apiVersion ?? '');
    const type = this.catalog.all().find((t) => t.names.group === group && t.names.kind === ref.kind);
    if (type === undefined) return 'solid';
    const namespace = dependent.key.includes('/') ? dependent.key.slice(0, dependent.key.indexOf('/')) : '';
    if (type.names.namespaced && namespace === '') return 'solid';
    const owner = this.ctx.store.get(type.bucket, storeKey(type.names.namespaced ? namespace : '', ref.name ?? ''));
    if (owner === undefined || owner.metadata.uid !== ref.uid) return 'dangling';
    if (owner.metadata.deletionTimestamp !== undefined && (owner.metadata.finalizers ?? []).includes(foregroundFinalizer)) return 'waiting';
    return 'solid';
  }

  /** `attemptToDeleteItem`: a dependent whose owners may be gone. */
  private async attemptToDelete(node: Node, obj: KubeObject): Promise<void> {
    if (obj.metadata.deletionTimestamp !== undefined) return;
    const solid: OwnerReference[] = [];
    const gone: OwnerReference[] = [];
    let waiting = 0;
    for (const ref of node.owners) {
      const state = this.ownerState(node, ref);
      if (state === 'solid') solid.push(ref);
      else gone.push(ref);
      if (state === 'waiting') waiting++;
    }
    const type = this.typeOfBucket(node.bucket);
    if (type === undefined) return;
    if (solid.length > 0) {
      if (gone.length === 0) return;
      const goneUids = new Set(gone.map((r) => r.uid));
      await this.writeMetadata(type, node, obj, (m) => {
        const kept = (m.ownerReferences ?? []).filter((r) => !goneUids.has(r.uid));
        if (kept.length > 0) m.ownerReferences = kept;
        else delete m.ownerReferences;
      });
      return;
    }
    const hasDependents = (this.dependents.get(node.uid)?.size ?? 0) > 0;
    const policy = waiting > 0 && hasDependents ? 'Foreground' : undefined;
    const [namespace, name] = splitKey(node.key);
    await deleteOne(this.ctx, type, namespace, name, { uid: node.uid, dryRun: false, propagationPolicy: policy ?? defaultPolicy(obj) }, false);
  }

  /** `orphanDependents`: removes the owner's references from its dependents, then the `orphan` finalizer. */
  private async orphanDependents(node: Node, owner: KubeObject): Promise<void> {
    for (const depId of [...(this.dependents.get(node.uid) ?? [])]) {
      const dep = this.nodes.get(depId);
      const depObj = dep === undefined ? undefined : this.ctx.store.get(dep.bucket, dep.key);
      const depType = dep === undefined ? undefined : this.typeOfBucket(dep.bucket);
      if (dep === undefined || depObj === undefined || depType === undefined) continue;
      await this.writeMetadata(depType, dep, depObj, (m) => {
        const kept = (m.ownerReferences ?? []).filter((r) => r.uid !== node.uid);
        if (kept.length > 0) m.ownerReferences = kept;
        else delete m.ownerReferences;
      });
    }
    await this.removeFinalizer(node, owner, orphanFinalizer);
  }

  /** `processDeletingDependentsItem`: deletes the blocking dependents, or lets the owner go. */
  private async deleteDependentsInForeground(node: Node, owner: KubeObject): Promise<void> {
    const blocking: Node[] = [];
    for (const depId of this.dependents.get(node.uid) ?? []) {
      const dep = this.nodes.get(depId);
      if (dep === undefined) continue;
      if (dep.owners.some((r) => r.uid === node.uid && r.blockOwnerDeletion === true)) blocking.push(dep);
    }
    if (blocking.length === 0) {
      await this.removeFinalizer(node, owner, foregroundFinalizer);
      return;
    }
    // Every dependent goes; the non-blocking ones are not waited for.
    for (const depId of [...(this.dependents.get(node.uid) ?? [])]) {
      const dep = this.nodes.get(depId);
      const depObj = dep === undefined ? undefined : this.ctx.store.get(dep.bucket, dep.key);
      if (dep === undefined || depObj === undefined || depObj.metadata.deletionTimestamp !== undefined) continue;
      await this.attemptToDelete(dep, depObj);
    }
  }

  private async removeFinalizer(node: Node, obj: KubeObject, finalizer: string): Promise<void> {
    const type = this.typeOfBucket(node.bucket);
    if (type === undefined) return;
    const remaining = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    const view = await type.fromStorage(obj);
    const [, name] = splitKey(node.key);
    if (remaining.length === 0 && (view.metadata.deletionGracePeriodSeconds ?? 0) === 0 && !(type.deferDeletion?.(view) ?? false)) {
      await this.ctx.store.delete(storedResourceOf(type), node.key, name, { rv: obj.metadata.resourceVersion }).durable;
      return;
    }
    await this.writeMetadata(type, node, obj, (m) => {
      if (remaining.length > 0) m.finalizers = remaining;
      else delete m.finalizers;
    });
  }

  private async writeMetadata(type: ResourceType, node: Node, obj: KubeObject, change: (m: KubeObject['metadata']) => void): Promise<void> {
    const next = cloneJSON(obj);
    change(next.metadata);
    const [, name] = splitKey(node.key);
    await this.ctx.store.update(storedResourceOf(type), node.key, name, next, obj.metadata.resourceVersion).durable;
  }
}

function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
}

/** The policy the collector deletes a dependent with: its own finalizers say, else background. */
function defaultPolicy(obj: KubeObject): 'Orphan' | 'Foreground' | 'Background' {
  const fin = obj.metadata.finalizers ?? [];
  if (fin.includes(orphanFinalizer)) return 'Orphan';
  if (fin.includes(foregroundFinalizer)) return 'Foreground';
  return 'Background';
}
