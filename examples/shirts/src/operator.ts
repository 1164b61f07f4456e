// The shirts operator: two controllers that show what selectable fields (KEP-4358) give an operator.
//
// - `blue-shirts` watches only blue shirts: its informer lists and watches with the field selector
//   spec.color=blue, so the server sends nothing else and the cache holds nothing else. It marks each
//   selected shirt `status.phase: Selected`, and `Released` once the shirt leaves the selection (the
//   informer tells a departure from a real deletion). It also looks at every shirt still marked
//   Selected that is not blue, so a departure missed during a leader change is released all the same.
// - `inventory` watches every shirt and keeps a ConfigMap `shirt-inventory` with the number of shirts
//   of each size and colour, counted with the informer's index on the selectable fields (a lookup per
//   value, not a scan), written with server-side apply.
import { noopLogger, type KubeObject, type Logger } from '@kubekit/core';
import { fieldSelector } from '@kubekit/decorators';
import { Controller, EventRecorder, Manager, updateStatus, type LeaseClient } from '@kubekit/controller';
import { Informer, KubeClient, type KubeConfigLike } from '@kubekit/informer';
import { ManagedShirt, type ShirtStatus } from './managedShirt.js';
import type { ShirtSpec } from './shirt.js';

/** A Shirt as the operator reads it. */
export type ShirtObject = KubeObject<ShirtSpec, ShirtStatus>;

/** The sizes and colours the inventory counts. */
export const inventorySizes = ['XS', 'S', 'M', 'L', 'XL'] as const;
export const inventoryColors = ['red', 'green', 'blue'] as const;

/** Options of {@link shirtsOperator}. */
export interface ShirtsOperatorOptions {
  kubeConfig: KubeConfigLike;
  /** The namespace to watch and write the inventory to. @defaultValue `default` */
  namespace?: string;
  /** @defaultValue no logging */
  logger?: Logger;
  /** Leader election on this Lease client; without it the operator runs at once. @defaultValue none */
  leaseClient?: LeaseClient;
  /** This instance's identity in leader election. @defaultValue `<hostname>_<random>` */
  identity?: string;
  /** Serve `/healthz`, `/readyz` and `/metrics` here. @defaultValue not served */
  probes?: { host?: string; port?: number };
  /** Called after every reconcile of a selected shirt, with its name and the phase written. */
  onReconciled?: (name: string, phase: ShirtStatus['phase']) => void;
}

/** The operator's parts: run `manager.start(signal)`. */
export interface ShirtsOperator {
  manager: Manager;
  /** The informer of blue shirts (server-side field selection). */
  blueShirts: Informer<ShirtObject>;
  /** The informer of all shirts, indexed by spec.color and spec.size. */
  allShirts: Informer<ShirtObject>;
  client: KubeClient;
}

/** Builds the shirts operator; see the module comment. */
export function shirtsOperator(options: ShirtsOperatorOptions): ShirtsOperator {
  const namespace = options.namespace ?? 'default';
  const logger = options.logger ?? noopLogger;
  const client = new KubeClient(options.kubeConfig, { userAgent: 'shirts-operator' });
  const shirts = client.resource<ShirtObject>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
  const configMaps = client.resource({ apiVersion: 'v1', plural: 'configmaps' });
  const recorder = new EventRecorder(client, { component: 'shirts-operator', logger });
  const resource = { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace, namespaced: true, kind: 'Shirt' } as const;

  // Typed: fieldSelector() accepts only the fields ManagedShirt declares selectable.
  const blueShirts = new Informer<ShirtObject>(options.kubeConfig, { ...resource, fieldSelector: fieldSelector(ManagedShirt, { 'spec.color': 'blue' }), logger });
  const allShirts = new Informer<ShirtObject>(options.kubeConfig, {
    ...resource, logger, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }],
  });
  blueShirts.on('delete', (shirt, { reason }) => logger.info(`shirt ${shirt.metadata.name} ${reason === 'leftSelection' ? 'left the selection' : 'was deleted'}`, { reason }));

  const blue = new Controller({
    name: 'blue-shirts', logger,
    reconciler: async ({ namespace: ns, name }) => {
      const cached = blueShirts.getByName(name, ns);
      if (cached !== undefined) {
        if (cached.status?.phase !== 'Selected' || cached.status.observedGeneration !== cached.metadata.generation) {
          await updateStatus(shirts, ns, name, (s) => { s.status = { phase: 'Selected', observedGeneration: s.metadata.generation }; });
          await recorder.event(cached, 'Normal', 'Selected', `shirt ${name} is ${cached.spec?.color}: selected`);
          logger.info(`reconciled shirt ${name}: Selected`, { color: cached.spec?.color });
        }
        options.onReconciled?.(name, 'Selected');
        return;
      }
      // Not in the cache: deleted, or no longer blue. Only a shirt that still exists is released.
      const live = await shirts.tryGet(name, { namespace: ns });
      if (live === undefined || live.status?.phase !== 'Selected') return;
      await updateStatus(shirts, ns, name, (s) => {
        if (s.spec?.color === 'blue') return false;
        s.status = { phase: 'Released', observedGeneration: s.metadata.generation };
        return true;
      });
      await recorder.event(live, 'Normal', 'Released', `shirt ${name} is ${live.spec?.color}: released`);
      logger.info(`reconciled shirt ${name}: Released`, { color: live.spec?.color });
      options.onReconciled?.(name, 'Released');
    },
  }).for(blueShirts)
    // Level-triggered: a shirt still marked Selected that is no longer blue is released even when its
    // departure was never seen here (it left while another instance led, or before a restart).
    .watches(allShirts, (shirt) => (shirt.status?.phase === 'Selected' && shirt.spec?.color !== 'blue'
      ? [{ namespace: shirt.metadata.namespace ?? namespace, name: shirt.metadata.name ?? '' }] : []));

  const inventory = new Controller({
    name: 'inventory', logger,
    reconciler: async () => {
      const data: Record<string, string> = {};
      for (const size of inventorySizes) data[`size.${size}`] = String(allShirts.byField('spec.size', size).length);
      for (const color of inventoryColors) data[`color.${color}`] = String(allShirts.byField('spec.color', color).length);
      await configMaps.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name: 'shirt-inventory' }, data }, { fieldManager: 'shirts-operator', force: true });
    },
  }).watches(allShirts, () => [{ namespace, name: 'shirt-inventory' }]);

  const manager = new Manager({
    logger,
    leaderElection: options.leaseClient === undefined ? undefined : { client: options.leaseClient, namespace, name: 'shirts-operator', identity: options.identity },
    probes: options.probes,
  });
  manager.add(blueShirts, { leaderElection: false }).add(allShirts, { leaderElection: false }).add(blue).add(inventory);
  return { manager, blueShirts, allShirts, client };
}
