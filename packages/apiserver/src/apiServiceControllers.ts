/**
 * The controllers kube-apiserver 1.34.4 runs on APIServices, as far as an API server without pods can:
 *
 * - the local APIServices of the built-in group-versions it serves, created at start with the priorities
 *   of kube-apiserver's table (`apiVersionPriorities`) and the `kube-aggregator.kubernetes.io/automanaged:
 *   onstart` label (pkg/controlplane/apiserver/aggregator.go; synced once: one deleted later stays deleted);
 * - crdregistration: an APIService for each version a CRD serves (priorities 1000 and 100, label
 *   `automanaged: true`), removed once no CRD serves it, and its spec restored when changed;
 * - the availability controllers: a local APIService is `Available` with reason `Local`; a service-backed
 *   one is checked against its Service and that Service's EndpointSlices (`ServiceNotFound`,
 *   `ServicePortError`, `EndpointsNotFound`, `MissingEndpoints`). Where the reference would then call the
 *   service's discovery endpoint, kubekit, which proxies to nothing, reports `FailedDiscoveryCheck` as the
 *   reference does when the cluster IP does not answer (its Go client's timeout words).
 *
 * Work is queued by APIService name and done one at a time, off the write path; every write checks the
 * resourceVersion it read and is dropped on a conflict (the store's event of the other write queues the
 * name again).
 */
import { randomUUID } from 'node:crypto';
import { KubeError, errorMessage, goQuote, type KubeObject, type Logger } from '@kubekit/core';
import { localAvailableCondition } from './apiServiceKinds.js';
import type { ResourceCatalog } from './catalog.js';
import { crdBucket } from './crdRegistry.js';
import { cloneJSON, isObject, objects, str, type JSONObject } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { WorkLoop } from './internal/workLoop.js';
import { timestamp } from './objectMeta.js';
import type { ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { bucketOf, storeKey, type StoreEvent } from './storage/objectStore.js';

/** The label the auto-registration controller marks the APIServices it manages with. */
export const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

const apiServicesBucket = bucketOf({ group: 'apiregistration.k8s.io', resource: 'apiservices' });
const servicesBucket = bucketOf({ group: '', resource: 'services' });
const endpointSlicesBucket = bucketOf({ group: 'discovery.k8s.io', resource: 'endpointslices' });
const serviceNameLabel = 'kubernetes.io/service-name';

/**
 * kube-apiserver's `apiVersionPriorities` (cmd/kube-apiserver/app/aggregator.go merged over
 * pkg/controlplane/apiserver's generic table): group priority, version priority, by `<version>.<group>`.
 * A served group-version missing from it gets no APIService.
 */
const priorities: Readonly<Record<string, readonly [number, number]>> = {
  'v1.': [18000, 1],
  'v1.events.k8s.io': [17750, 15], 'v1beta1.events.k8s.io': [17750, 5],
  'v1.apps': [17800, 15],
  'v1.authentication.k8s.io': [17700, 15], 'v1beta1.authentication.k8s.io': [17700, 9], 'v1alpha1.authentication.k8s.io': [17700, 1],
  'v1.authorization.k8s.io': [17600, 15],
  'v1.autoscaling': [17500, 15], 'v2.autoscaling': [17500, 30], 'v2beta1.autoscaling': [17500, 9], 'v2beta2.autoscaling': [17500, 1],
  'v1.batch': [17400, 15], 'v1beta1.batch': [17400, 9], 'v2alpha1.batch': [17400, 9],
  'v1.certificates.k8s.io': [17300, 15], 'v1beta1.certificates.k8s.io': [17300, 9], 'v1alpha1.certificates.k8s.io': [17300, 1],
  'v1.networking.k8s.io': [17200, 15], 'v1beta1.networking.k8s.io': [17200, 9],
  'v1.policy': [17100, 15], 'v1beta1.policy': [17100, 9],
  'v1.rbac.authorization.k8s.io': [17000, 15],
  'v1.storage.k8s.io': [16800, 15], 'v1beta1.storage.k8s.io': [16800, 9], 'v1alpha1.storage.k8s.io': [16800, 1],
  'v1.apiextensions.k8s.io': [16700, 15],
  'v1.admissionregistration.k8s.io': [16700, 15], 'v1beta1.admissionregistration.k8s.io': [16700, 12], 'v1alpha1.admissionregistration.k8s.io': [16700, 9],
  'v1.scheduling.k8s.io': [16600, 15],
  'v1.coordination.k8s.io': [16500, 15], 'v1beta1.coordination.k8s.io': [16500, 13], 'v1alpha2.coordination.k8s.io': [16500, 12],
  'v1.node.k8s.io': [16300, 15], 'v1alpha1.node.k8s.io': [16300, 1], 'v1beta1.node.k8s.io': [16300, 9],
  'v1.discovery.k8s.io': [16200, 15], 'v1beta1.discovery.k8s.io': [16200, 12],
  'v1.resource.k8s.io': [16200, 21], 'v1beta2.resource.k8s.io': [16200, 15], 'v1beta1.resource.k8s.io': [16200, 9], 'v1alpha3.resource.k8s.io': [16200, 1],
  'v1.flowcontrol.apiserver.k8s.io': [16100, 21], 'v1beta3.flowcontrol.apiserver.k8s.io': [16100, 18], 'v1beta2.flowcontrol.apiserver.k8s.io': [16100, 15],
  'v1beta1.flowcontrol.apiserver.k8s.io': [16100, 12], 'v1alpha1.flowcontrol.apiserver.k8s.io': [16100, 9],
  'v1alpha1.internal.apiserver.k8s.io': [16000, 9],
  'v1alpha1.storagemigration.k8s.io': [15800, 9],
};

/**
 * The group and version priorities kube-apiserver registers a built-in group-version's local APIService
 * with (`<version>.<group>`; the core group's is `v1.`), or undefined for one it registers none for.
 */
export function localAPIServicePriorities(name: string): readonly [number, number] | undefined {
  return Object.hasOwn(priorities, name) ? priorities[name] : undefined;
}

/** What an APIService managed here should be: its spec and how it is managed. */
interface Desired {
  spec: JSONObject;
  label: 'onstart' | 'true';
}

function apiServiceSpec(group: string, version: string, groupPriorityMinimum: number, versionPriority: number): JSONObject {
  return group === '' ? { version, groupPriorityMinimum, versionPriority } : { group, version, groupPriorityMinimum, versionPriority };
}

/** See the file comment. */
export class APIServiceControllers {
  private readonly loop = new WorkLoop((name) => this.reconcile(name));
  private readonly local = new Map<string, Desired>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ctx: ServerContext, private readonly catalog: ResourceCatalog, private readonly type: ResourceType, private readonly logger: Logger) {
    for (const t of [...catalog.builtins, catalog.crdType]) {
      const { group, version } = t.names;
      const name = `${version}.${group}`;
      const p = localAPIServicePriorities(name);
      if (p !== undefined) this.local.set(name, { spec: apiServiceSpec(group, version, p[0], p[1]), label: 'onstart' });
    }
  }

  /**
   * Creates the local APIServices not stored, restores the spec of stored `onstart` ones (the one sync
   * they get), then starts watching the store.
   */
  async start(): Promise<void> {
    const now = timestamp(this.ctx.clock.now());
    for (const [name, desired] of this.local) {
      const current = this.ctx.store.get(apiServicesBucket, name);
      if (current === undefined) await this.create(name, desired, now);
      else if (current.metadata.labels?.[automanagedLabel] === 'onstart' && !semanticEqual(current.spec, desired.spec)) await this.write(current, { ...cloneJSON(current), spec: cloneJSON(desired.spec) });
    }
    this.unsubscribe = this.ctx.store.subscribe((e) => this.observe(e));
    for (const crd of this.catalog.crds.definitions()) for (const v of crd.spec.versions) this.loop.enqueue(`${v.name}.${crd.spec.group}`);
    for (const [name] of this.ctx.store.values(apiServicesBucket)) this.loop.enqueue(name);
  }

  /** Stops the controllers; resolves once the item in flight, if any, is done. */
  close(): Promise<void> {
    this.unsubscribe?.();
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
    if (e.bucket === apiServicesBucket) {
      this.loop.enqueue(e.key);
    } else if (e.bucket === crdBucket) {
      const spec = e.object.spec;
      if (!isObject(spec)) return;
      for (const v of objects(spec.versions)) this.loop.enqueue(`${str(v.name)}.${str(spec.group)}`);
    } else if (e.bucket === servicesBucket || e.bucket === endpointSlicesBucket) {
      // The APIServices that name the Service (an EndpointSlice names it in its service-name label).
      const namespace = e.object.metadata.namespace ?? '';
      const service = e.bucket === servicesBucket ? e.object.metadata.name ?? '' : e.object.metadata.labels?.[serviceNameLabel];
      if (service === undefined) return;
      for (const [name, o] of this.ctx.store.values(apiServicesBucket)) {
        const ref = isObject(o.spec) && isObject(o.spec.service) ? o.spec.service : undefined;
        if (ref !== undefined && ref.namespace === namespace && ref.name === service) this.loop.enqueue(name);
      }
    }
  }

  /** The APIService a served CRD version asks for (crdregistration's `handleVersionUpdate`). */
  private crdDesired(name: string): Desired | undefined {
    for (const crd of this.catalog.crds.definitions()) {
      for (const v of crd.spec.versions) {
        if (v.served && `${v.name}.${crd.spec.group}` === name) return { spec: apiServiceSpec(crd.spec.group, v.name, 1000, 100), label: 'true' };
      }
    }
    return undefined;
  }

  private async reconcile(name: string): Promise<void> {
    const now = timestamp(this.ctx.clock.now());
    let current = this.ctx.store.get(apiServicesBucket, name);
    // autoregister's checkAPIService for the continuously managed ones (the local ones were synced at start).
    const desired = this.crdDesired(name);
    if (current === undefined) {
      if (desired !== undefined) await this.create(name, desired, now);
      return;
    }
    if (current.metadata.labels?.[automanagedLabel] === 'true' && !this.local.has(name)) {
      if (desired === undefined) {
        const uid = current.metadata.uid;
        await this.tolerant(() => this.ctx.store.delete(this.type.groupResource, name, name, { uid }).durable, name);
        return;
      }
      if (!semanticEqual(current.spec, desired.spec)) {
        current = await this.write(current, { ...cloneJSON(current), spec: cloneJSON(desired.spec) });
        if (current === undefined) return;
      }
    }
    await this.updateAvailability(current, now);
  }

  /** The available-condition controllers: the Available condition the APIService should have. */
  private async updateAvailability(apiService: KubeObject, now: string): Promise<void> {
    const condition = this.availableCondition(apiService, now);
    if (condition === undefined) return;
    const next = cloneJSON(apiService);
    const status = isObject(next.status) ? next.status : (next.status = {});
    const conditions = objects(status.conditions);
    const existing = conditions.find((c) => c.type === 'Available');
    // SetAPIServiceCondition: the transition time moves only with the status.
    if (existing === undefined) {
      status.conditions = [...conditions, condition];
    } else {
      if (existing.status !== condition.status) {
        existing.status = condition.status;
        existing.lastTransitionTime = condition.lastTransitionTime;
      }
      existing.reason = condition.reason;
      existing.message = condition.message;
      status.conditions = conditions;
    }
    if (semanticEqual(next.status, apiService.status)) return;
    await this.write(apiService, next);
  }

  /** `sync` of the local and remote available-condition controllers, up to the discovery check. */
  private availableCondition(apiService: KubeObject, now: string): JSONObject | undefined {
    const apiSpec = isObject(apiService.spec) ? apiService.spec : {};
    const ref = isObject(apiSpec.service) ? apiSpec.service : undefined;
    if (ref === undefined) return localAvailableCondition(now);
    const namespace = str(ref.namespace);
    const name = str(ref.name);
    const port = typeof ref.port === 'number' ? ref.port : 443;
    const which = `service/${name} in ${goQuote(namespace)}`;
    const unavailable = (reason: string, message: string): JSONObject => ({ type: 'Available', status: 'False', lastTransitionTime: now, reason, message });
    const service = this.ctx.store.get(servicesBucket, storeKey(namespace, name));
    if (service === undefined) return unavailable('ServiceNotFound', `${which} is not present`);
    const spec = isObject(service.spec) ? service.spec : {};
    // Only a ClusterIP Service is checked further (the defaults give a Service without a type that one).
    if ((spec.type ?? 'ClusterIP') !== 'ClusterIP') return undefined;
    const servicePort = objects(spec.ports).find((p) => p.port === port);
    if (servicePort === undefined) return unavailable('ServicePortError', `${which} is not listening on port ${port}`);
    const portName = str(servicePort.name);
    const slices = [...this.ctx.store.values(endpointSlicesBucket)].map(([, s]) => s)
      .filter((s) => s.metadata.namespace === namespace && s.metadata.labels?.[serviceNameLabel] === name);
    if (slices.length === 0) return unavailable('EndpointsNotFound', `cannot find endpointslices for ${which}`);
    const active = slices.some((s) => {
      const ready = objects(s.endpoints).some((e) => !isObject(e.conditions) || e.conditions.ready === undefined || e.conditions.ready === null || e.conditions.ready === true);
      return ready && objects(s.ports).some((p) => typeof p.name === 'string' && p.name === portName && typeof p.port === 'number');
    });
    if (!active) return unavailable('MissingEndpoints', `endpointslices for ${which} have no addresses with port name ${goQuote(portName)}`);
    // The reference now calls the discovery endpoint at the Service's cluster IP, which nothing answers on
    // kubekit (it runs no pods): its 5-second client times out.
    const ip = str(spec.clusterIP);
    if (ip === '' || ip === 'None') return undefined;
    const url = `https://${ip.includes(':') ? `[${ip}]` : ip}:${port}${apiService.metadata.name === 'v1.' ? '/api/v1' : `/apis/${str(apiSpec.group)}/${str(apiSpec.version)}`}`;
    return unavailable('FailedDiscoveryCheck', `failing or missing response from ${url}: Get ${goQuote(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
  }

  private async create(name: string, desired: Desired, now: string): Promise<void> {
    const o: KubeObject = {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
      metadata: { name, uid: randomUUID(), creationTimestamp: now, labels: { [automanagedLabel]: desired.label } },
      spec: cloneJSON(desired.spec),
      // The strategy's PrepareForCreate: a local APIService starts Available.
      status: { conditions: [localAvailableCondition(now)] },
    };
    const stored = await this.type.toStorage(o);
    await this.tolerant(() => this.ctx.store.create(this.type.groupResource, name, name, stored).durable, name);
  }

  /** Writes `next` over `current` if it is still the stored one; the object written, or undefined. */
  private async write(current: KubeObject, next: KubeObject): Promise<KubeObject | undefined> {
    const name = current.metadata.name ?? '';
    try {
      const w = this.ctx.store.update(this.type.groupResource, name, name, await this.type.toStorage(next), current.metadata.resourceVersion);
      await w.durable;
      return w.event.object;
    } catch (err) {
      this.lostWrite(err, name);
      return undefined;
    }
  }

  /** Runs a write that may lose a race (AlreadyExists, NotFound, Conflict): the store's events queue the name again. */
  private async tolerant(write: () => Promise<void>, name: string): Promise<void> {
    try {
      await write();
    } catch (err) {
      this.lostWrite(err, name);
    }
  }

  /**
   * A write that failed: one that lost a race is retried when the other write's store event queues the name
   * again; anything else is logged as a warning, not hidden among the races.
   */
  private lostWrite(err: unknown, name: string): void {
    const race = err instanceof KubeError && (err.reason === 'Conflict' || err.reason === 'AlreadyExists' || err.reason === 'NotFound');
    if (race) this.logger.debug('an APIService write lost a race; it is retried', { name, error: errorMessage(err) });
    else this.logger.warn('writing an APIService failed', { name, error: errorMessage(err) });
  }
}
