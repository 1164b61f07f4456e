import { KubeError } from '@kubekit/core';

type ClientNodeModule = typeof import('@kubernetes/client-node');

/** Whether `version` (`v20.19.0` or `20.19.0`) is at least `major.minor`. */
export function nodeAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.replace(/^v/, '').split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

/**
 * Imports `@kubernetes/client-node` (kubekit's peer dependency, needed only for kubeconfigs kubekit's
 * own reader does not serve) and turns the two ways that fails in practice into errors that name the
 * fix: the package is not installed, or a 2.x release was forced onto Node older than 22.19, where its
 * undici 8 throws while loading.
 */
export async function importClientNode(
  load: () => Promise<unknown> = () => import('@kubernetes/client-node'),
  nodeVersion: string = process.version,
): Promise<ClientNodeModule> {
  try {
    return (await load()) as ClientNodeModule;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes('@kubernetes/client-node')) {
      throw new KubeError('InternalError', 'this kubeconfig needs @kubernetes/client-node (for auth-provider plugins or proxy-url), which is not installed: npm install @kubernetes/client-node@^1.4', { cause: err });
    }
    if (!nodeAtLeast(nodeVersion, 22, 19)) {
      throw new KubeError('InternalError', `@kubernetes/client-node failed to load on Node ${nodeVersion} (${(err as Error).message}): kubekit supports @kubernetes/client-node ^1.4 there; 2.x needs Node 22.19 or later`, { cause: err });
    }
    throw err;
  }
}
