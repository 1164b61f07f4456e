import type { KubeClient } from '@kubekit/informer';
import type { Lease, LeaseClient } from './leaderElector.js';

/** A {@link LeaseClient} that reads and writes coordination.k8s.io/v1 Leases of a cluster. */
export function kubeLeaseClient(client: KubeClient): LeaseClient {
  const leases = client.resource<Lease>({ apiVersion: 'coordination.k8s.io/v1', plural: 'leases' });
  return {
    get: (namespace, name, signal) => leases.tryGet(name, { namespace, signal }),
    create: (lease, signal) => leases.create(lease, { signal }),
    update: (lease, signal) => leases.update(lease, { signal }),
  };
}
