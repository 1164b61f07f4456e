/**
 * The `kubernetes` Service of the `default` namespace, which kube-apiserver's bootstrap controller keeps
 * (pkg/controlplane/controller/kubernetesservice, `CreateOrUpdateMasterServiceIfNeeded`): a ClusterIP
 * Service on the first address of the service range, port 443 named `https` to the server's own port,
 * labelled `component=apiserver` and `provider=kubernetes`. It is created when the server starts, and again
 * within 10 s of being deleted (the controller's interval); its IPAddress follows from the stored Service
 * as any other's does (`ServiceIPAddresses`).
 *
 * A Service that was changed is left as it is (the controller has not reconciled it since Kubernetes 1.17).
 * Its Endpoints are not kept: the reference server runs without them (`--endpoint-reconciler-type=none`, as
 * envtest does).
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '@kubekit/core';
import { parseIPv4Range } from './internal/serviceAddresses.js';
import { storedResourceOf, type ResourceType } from './resourceType.js';
import { ipText } from './serviceValidation.js';
import { storeKey, type ObjectStore } from './storage/objectStore.js';

/** The namespace and name of the Service. */
export const kubernetesServiceName = { namespace: 'default', name: 'kubernetes' };

/** How often the Service is looked for (the bootstrap controller's `EndpointInterval`). */
const intervalMs = 10_000;

/** The fields the controller's create is recorded as owning (what its request set, after defaults). */
const ownedFields = {
  'f:metadata': { 'f:labels': { '.': {}, 'f:component': {}, 'f:provider': {} } },
  'f:spec': {
    'f:clusterIP': {}, 'f:internalTrafficPolicy': {}, 'f:ipFamilyPolicy': {},
    'f:ports': { '.': {}, 'k:{"port":443,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
    'f:sessionAffinity': {}, 'f:type': {},
  },
};

/** The first address of an IPv4 range (`10.96.0.0/12` → `10.96.0.1`). */
export function firstServiceIP(range: string): string | undefined {
  const parsed = parseIPv4Range(range);
  if (parsed === undefined || parsed.size < 4) return undefined;
  return ipText(parsed.base + 1);
}

/** Keeps the `kubernetes` Service (see the file comment) until {@link close}. */
export class KubernetesService {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  /**
   * @param port - the server's own port (the Service's target port)
   * @param onError - told of a create that failed (the address taken by another Service, the store refusing)
   */
  constructor(
    private readonly store: ObjectStore,
    private readonly services: ResourceType,
    private readonly range: string,
    private readonly port: number,
    private readonly now: () => string,
    private readonly managedFields: boolean,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Creates the Service when it is missing, then again every 10 s when it has been deleted. */
  async start(): Promise<void> {
    await this.ensure();
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.ensure());
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops looking; resolves once a create in flight has landed. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async ensure(): Promise<void> {
    try {
      const { namespace, name } = kubernetesServiceName;
      const key = storeKey(namespace, name);
      if (this.store.get(this.services.bucket, key) !== undefined || this.store.get('/namespaces', namespace) === undefined) return;
      const ip = firstServiceIP(this.range);
      if (ip === undefined) return;
      for (const [, svc] of this.store.values(this.services.bucket)) {
        const ips = (svc.spec as { clusterIPs?: unknown } | undefined)?.clusterIPs;
        if (Array.isArray(ips) && ips.includes(ip)) throw new Error(`the address ${ip} of the kubernetes Service is held by the Service ${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`);
      }
      const time = this.now();
      const service: KubeObject = {
        apiVersion: 'v1', kind: 'Service',
        metadata: {
          name, namespace, uid: randomUUID(), creationTimestamp: time, labels: { component: 'apiserver', provider: 'kubernetes' },
          ...(this.managedFields ? { managedFields: [{ manager: 'kube-apiserver', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: ownedFields }] } : {}),
        },
        spec: {
          ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: this.port }],
          clusterIP: ip, clusterIPs: [ip], type: 'ClusterIP', sessionAffinity: 'None',
          ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster',
        },
        status: { loadBalancer: {} },
      };
      await this.store.create(storedResourceOf(this.services), key, name, await this.services.toStorage(service)).durable;
    } catch (err) {
      this.onError(err);
    }
  }
}
