/**
 * The registry of custom resources: which CRDs are served, under which group, version and names.
 * It follows the stored CustomResourceDefinitions (every write to them, in order) and rebuilds a
 * {@link CustomResourceRuntime} whenever a CRD's spec changes, as the apiserver rebuilds a CRD's
 * storage; open watches of the old definition are closed (clients re-watch).
 *
 * A CRD is served as soon as it is stored and its names do not conflict with another CRD of the
 * group; the `NamesAccepted` and `Established` conditions follow in the CRD's status (see
 * `controllers.ts`).
 */
import type { CustomResourceDefinition } from '@kubekit/crd';
import { stringifyJSON, type KubeObject } from '@kubekit/core';
import { CustomResourceRuntime, type CustomResourceOptions, type CustomResourceType } from './customResourceHandler.js';
import type { ObjectStore, StoreEvent } from './storage/objectStore.js';
import type { WatchHub } from './watchHub.js';

/** The bucket of CustomResourceDefinitions. */
export const crdBucket = 'apiextensions.k8s.io/customresourcedefinitions';

/**
 * The order of versions in discovery: GA versions first (highest first), then beta, then alpha,
 * then versions that do not look like Kubernetes versions (alphabetically).
 */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (m === null) return undefined;
    const level = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [level, Number(m[1]), m[3] === undefined ? 0 : Number(m[3])];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined && pb === undefined) return a < b ? -1 : a > b ? 1 : 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  return pb[0] - pa[0] || pb[1] - pa[1] || pb[2] - pa[2];
}

/** A name conflict of a CRD with another CRD of its group, as the naming controller reports it. */
export function nameConflict(crd: CustomResourceDefinition, others: Iterable<CustomResourceDefinition>): string | undefined {
  const n = crd.spec.names;
  for (const o of others) {
    if (o.metadata.name === crd.metadata.name || o.spec.group !== crd.spec.group) continue;
    const on = o.spec.names;
    const taken = new Set([on.plural, on.singular ?? '', ...(on.shortNames ?? [])].filter((x) => x !== ''));
    if (taken.has(n.plural)) return `"${n.plural}" is already in use`;
    if (n.singular !== undefined && taken.has(n.singular)) return `"${n.singular}" is already in use`;
    for (const s of n.shortNames ?? []) if (taken.has(s)) return `"${s}" is already in use`;
    if (on.kind === n.kind) return `"${n.kind}" is already in use`;
    if ((on.listKind ?? '') !== '' && on.listKind === n.listKind) return `"${n.listKind ?? ''}" is already in use`;
  }
  return undefined;
}

/** See the file comment. */
export class CrdRegistry {
  private readonly runtimes = new Map<string, CustomResourceRuntime>();
  private readonly byGVR = new Map<string, CustomResourceType>();
  private readonly unsubscribe: () => void;
  private readonly listeners = new Set<(crd: CustomResourceDefinition, event: StoreEvent | undefined) => void>();

  constructor(private readonly store: ObjectStore, private readonly hub: WatchHub, private readonly options: CustomResourceOptions) {
    for (const [, o] of store.values(crdBucket)) this.rebuild(o as unknown as CustomResourceDefinition);
    this.unsubscribe = store.onCommit((e) => {
      if (e.bucket !== crdBucket) return;
      const crd = e.object as unknown as CustomResourceDefinition;
      if (e.type === 'DELETED') this.remove(crd.metadata.name ?? '');
      else this.rebuild(crd, e.prevObject as unknown as CustomResourceDefinition | undefined);
      for (const l of this.listeners) l(crd, e);
    });
  }

  /** Calls `listener` on every committed change of a CRD. */
  onChange(listener: (crd: CustomResourceDefinition, event: StoreEvent | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops following the store. */
  close(): void {
    this.unsubscribe();
    for (const r of this.runtimes.values()) r.detach();
  }

  /** The served type of a group, version and plural, if any. */
  resolve(group: string, version: string, resource: string): CustomResourceType | undefined {
    return this.byGVR.get(`${group}/${version}/${resource}`);
  }

  /** Every served runtime. */
  served(): CustomResourceRuntime[] {
    return [...this.runtimes.values()];
  }

  /** The stored CRDs. */
  definitions(): CustomResourceDefinition[] {
    return [...this.store.values(crdBucket)].map(([, o]) => o as unknown as CustomResourceDefinition);
  }

  private rebuild(crd: CustomResourceDefinition, prev?: CustomResourceDefinition): void {
    const name = crd.metadata.name ?? '';
    const existing = this.runtimes.get(name);
    // Status and metadata changes (conditions, finalizers, a deletionTimestamp) leave what is served as it is.
    if (existing !== undefined && prev !== undefined && this.sameServing(existing.crd, crd)) return;
    this.remove(name);
    const others = this.definitions().filter((o) => o.metadata.name !== name);
    if (nameConflict(crd, others) !== undefined) return;
    let runtime: CustomResourceRuntime;
    try {
      runtime = new CustomResourceRuntime(crd, this.store, this.options);
    } catch {
      // A definition the server cannot serve (a webhook without a URL): stored, not served.
      return;
    }
    this.runtimes.set(name, runtime);
    for (const t of runtime.types) this.byGVR.set(`${crd.spec.group}/${t.version}/${crd.spec.names.plural}`, t);
  }

  private sameServing(a: CustomResourceDefinition, b: CustomResourceDefinition): boolean {
    return stringifyJSON(a.spec) === stringifyJSON(b.spec);
  }

  private remove(name: string): void {
    const r = this.runtimes.get(name);
    if (r === undefined) return;
    r.detach();
    this.runtimes.delete(name);
    for (const [k, t] of this.byGVR) if (t.runtime === r) this.byGVR.delete(k);
    for (const t of r.types) this.hub.dropEncodeCache(t);
    this.hub.stopBucket(r.bucket);
  }

  /** The runtime serving a CRD, by name. */
  runtime(name: string): CustomResourceRuntime | undefined {
    return this.runtimes.get(name);
  }

  /** The stored CRD object of a runtime's bucket (for cleanups). */
  storedDefinition(name: string): KubeObject | undefined {
    return this.store.get(crdBucket, name);
  }
}
