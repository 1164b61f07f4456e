/**
 * The two backends of the differential suite (and of the e2e suites that run on both): kubekit's
 * embedded server and the real kube-apiserver from @kubekit/envtest. Go on PATH selects the real one;
 * without Go, the recorded answers of the real one (fixtures/reference.json) stand in for it.
 */
import { spawnSync } from 'node:child_process';
import { startApiServer } from '@kubekit/apiserver';
import { startReferenceApiServer } from '@kubekit/envtest';
import type { Target } from './client.js';

/** A running server of either kind, as the suites need it. */
export interface Backend extends Target {
  kubeconfig: string;
  /** The Kubernetes version served (the reference's k8s.io/kubernetes release). */
  version: string;
  close(): Promise<void>;
}

/** Which server pair: the default one, or CustomResourceFieldSelectors off as on a 1.31 cluster. */
export type ServerSet = 'default' | 'gateOff';

/** Whether the real kube-apiserver can be built here: Go on PATH (or KUBEKIT_GO), unless KUBEKIT_DIFFERENTIAL=fixtures. */
export function referenceAvailable(): boolean {
  if (process.env.KUBEKIT_DIFFERENTIAL === 'fixtures') return false;
  const r = spawnSync(process.env.KUBEKIT_GO ?? 'go', ['version'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } });
  return r.status === 0;
}

/** Starts kubekit's embedded server, configured like the reference for a server set. */
export async function startKubekit(set: ServerSet = 'default'): Promise<Backend> {
  const server = await startApiServer(set === 'gateOff' ? { customResourceFieldSelectors: false } : {});
  return { name: 'kubekit', url: server.url, kubeconfig: server.kubeconfig, version: 'kubekit', close: () => server.close() };
}

/** Starts the real kube-apiserver for a server set (building it first if needed). */
export async function startReference(set: ServerSet = 'default'): Promise<Backend> {
  const server = await startReferenceApiServer(set === 'gateOff' ? { featureGates: { CustomResourceFieldSelectors: false }, emulatedVersion: '1.31' } : {});
  return { name: 'reference', url: server.url, token: server.token, ca: server.ca, kubeconfig: server.kubeconfig, version: server.version, close: () => server.close() };
}
