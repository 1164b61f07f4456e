/**
 * The servers the integration suites run on: kubekit's embedded API server, and the real kube-apiserver
 * built from the official Go modules by @kubekit/envtest (when Go is on PATH).
 */
import { spawnSync } from 'node:child_process';
import { startApiServer } from '@kubekit/apiserver';
import { startReferenceApiServer } from '@kubekit/envtest';
import type { KubeAuth } from './kube.js';

/** A running server as the suites use it. */
export interface TestServer {
  name: 'embedded' | 'reference';
  url: string;
  kubeconfig: string;
  auth: KubeAuth;
  /** The latest resourceVersion (embedded only: the real one has other writers, e.g. its own leases). */
  resourceVersion?: () => number;
  /** Open watches (embedded only). */
  watchCount?: () => number;
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** CustomResourceFieldSelectors off, as a 1.31 cluster. */
  gateOff?: boolean;
  /** Bookmark interval of the embedded server. */
  bookmarkIntervalMs?: number;
}

/**
 * A server factory per backend; the real apiserver only when Go is on PATH (or KUBEKIT_GO).
 * `KUBEKIT_BACKENDS=embedded` or `=reference` keeps one of them.
 */
export function testBackends(): { name: TestServer['name']; start: (options?: TestServerOptions) => Promise<TestServer> }[] {
  const only = process.env.KUBEKIT_BACKENDS;
  const out: { name: TestServer['name']; start: (options?: TestServerOptions) => Promise<TestServer> }[] = only === 'reference' ? [] : [{ name: 'embedded', start: startEmbedded }];
  if (spawnSync(process.env.KUBEKIT_GO ?? 'go', ['version']).status === 0 && only !== 'embedded') out.push({ name: 'reference', start: startReference });
  return out;
}

async function startEmbedded(options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startApiServer({ bookmarkIntervalMs: options.bookmarkIntervalMs, customResourceFieldSelectors: !options.gateOff });
  return {
    name: 'embedded', url: server.url, kubeconfig: server.kubeconfig, auth: {},
    resourceVersion: () => server.resourceVersion, watchCount: () => server.watchCount,
    idle: () => server.idle(), close: () => server.close(),
  };
}

async function startReference(options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startReferenceApiServer(options.gateOff ? { featureGates: { CustomResourceFieldSelectors: false }, emulatedVersion: '1.31' } : {});
  return {
    name: 'reference', url: server.url, kubeconfig: server.kubeconfig, auth: { token: server.token, ca: server.ca },
    idle: () => Promise.resolve(), close: () => server.close(),
  };
}
