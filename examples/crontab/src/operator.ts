// The CronTab operator: keeps `spec.replicas` job records (ConfigMaps labelled with the CronTab's name,
// owned by it) for every CronTab, reports them in `status.replicas` and `status.labelSelector` (which the
// scale subresource reads, so `kubectl scale crontab/x --replicas=3` works), and removes them through a
// finalizer when the CronTab is deleted. The defaults of the CRD (cronSpec "5 0 * * *", replicas 1) are
// applied by the API server, so a CronTab created without them still gets one job record.
import { noopLogger, type KubeObject, type Logger } from '@kubekit/core';
import { Controller, Manager, handleFinalizer, setControllerReference, updateStatus } from '@kubekit/controller';
import { Informer, KubeClient, type KubeConfigLike } from '@kubekit/informer';
import type { CronTabSpec, CronTabStatus } from './crontab.js';

/** A CronTab as the operator reads it. */
export type CronTabObject = KubeObject<CronTabSpec, CronTabStatus>;

/** The finalizer the operator puts on every CronTab. */
export const cronTabFinalizer = 'stable.example.com/job-records';
const managedBy = 'app.kubernetes.io/managed-by';

/** Options of {@link cronTabOperator}. */
export interface CronTabOperatorOptions {
  kubeConfig: KubeConfigLike;
  /** @defaultValue `default` */
  namespace?: string;
  /** @defaultValue no logging */
  logger?: Logger;
}

/** Builds the CronTab operator; run `manager.start(signal)`. */
export function cronTabOperator(options: CronTabOperatorOptions): { manager: Manager; cronTabs: Informer<CronTabObject>; jobs: Informer; client: KubeClient } {
  const namespace = options.namespace ?? 'default';
  const logger = options.logger ?? noopLogger;
  const client = new KubeClient(options.kubeConfig, { userAgent: 'crontab-operator' });
  const cronTabsApi = client.resource<CronTabObject>({ apiVersion: 'stable.example.com/v1', plural: 'crontabs' });
  const configMaps = client.resource({ apiVersion: 'v1', plural: 'configmaps' });
  const cronTabs = new Informer<CronTabObject>(options.kubeConfig, { apiVersion: 'stable.example.com/v1', plural: 'crontabs', namespace, logger });
  const jobs = new Informer(options.kubeConfig, { apiVersion: 'v1', plural: 'configmaps', namespace, labelSelector: `${managedBy}=crontab-operator`, logger });

  const jobsOf = (name: string): KubeObject[] => jobs.byLabel('crontab', name).sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));

  const controller = new Controller({
    name: 'crontab', logger,
    reconciler: async ({ namespace: ns, name }) => {
      const cronTab = cronTabs.getByName(name, ns);
      if (cronTab === undefined) return;
      const outcome = await handleFinalizer(cronTabsApi, cronTab, cronTabFinalizer, async () => {
        for (const job of jobsOf(name)) await configMaps.delete(job.metadata.name!, { namespace: ns }).catch(() => undefined);
        logger.info(`removed the job records of crontab ${name}`);
      });
      if (outcome !== 'unchanged' || cronTab.metadata.deletionTimestamp !== undefined) return;
      const want = cronTab.spec?.replicas ?? 1;
      const have = jobsOf(name);
      for (let i = have.length; i < want; i++) {
        const job = setControllerReference(cronTab, {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { namespace: ns, generateName: `${name}-job-`, labels: { [managedBy]: 'crontab-operator', crontab: name } },
          data: { cronSpec: cronTab.spec?.cronSpec ?? '', image: cronTab.spec?.image ?? '' },
        });
        await configMaps.create(job);
      }
      for (const extra of have.slice(want)) await configMaps.delete(extra.metadata.name!, { namespace: ns });
      await updateStatus(cronTabsApi, ns, name, (c) => {
        const status = { replicas: want, labelSelector: `crontab=${name}` };
        if (c.status?.replicas === status.replicas && c.status.labelSelector === status.labelSelector) return false;
        c.status = status;
        return true;
      });
    },
  })
    .for(cronTabs)
    .owns(jobs, { apiVersion: 'stable.example.com/v1', kind: 'CronTab' });

  const manager = new Manager({ logger }).add(cronTabs, { leaderElection: false }).add(jobs, { leaderElection: false }).add(controller);
  return { manager, cronTabs, jobs, client };
}
