import { KubeError } from '@kubekit/core';
import type { Lease, LeaseClient } from '@kubekit/controller';

/** A Lease store with the apiserver's optimistic concurrency, and a switch that makes one caller's requests hang. */
export class MemoryLeases {
  private lease: Lease | undefined;
  private rv = 0;
  clientFor(paused: () => boolean): LeaseClient {
    const hang = (signal?: AbortSignal): Promise<never> => new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    return {
      get: async (_ns, _name, signal) => {
        if (paused()) return hang(signal);
        return this.lease && structuredClone(this.lease);
      },
      create: async (lease, signal) => {
        if (paused()) return hang(signal);
        if (this.lease) throw new KubeError('AlreadyExists', 'exists');
        this.lease = { ...structuredClone(lease), metadata: { ...lease.metadata, resourceVersion: String(++this.rv) } };
        return structuredClone(this.lease);
      },
      update: async (lease, signal) => {
        if (paused()) return hang(signal);
        if (!this.lease || lease.metadata.resourceVersion !== this.lease.metadata.resourceVersion) throw new KubeError('Conflict', 'conflict');
        this.lease = { ...structuredClone(lease), metadata: { ...lease.metadata, resourceVersion: String(++this.rv) } };
        return structuredClone(this.lease);
      },
    };
  }
  holder(): string | undefined { return this.lease?.spec.holderIdentity; }
}

