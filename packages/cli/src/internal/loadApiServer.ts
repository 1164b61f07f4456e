import { exitCodes } from '../exitCodes.js';
import { CommandError } from './context.js';

/** What `kubekit serve` uses of `@kubekit/apiserver`. */
export type ApiServerModule = Pick<typeof import('@kubekit/apiserver'), 'startApiServer' | 'DataDirectoryError' | 'isLoopback'>;

/**
 * Imports `@kubekit/apiserver`, an optional peer of the CLI: a project that only generates and checks
 * CRDs does not install the embedded server, and `kubekit serve` then says how to add it.
 *
 * @throws CommandError (usage) naming the install command when the package is missing
 */
export async function loadApiServer(load: () => Promise<ApiServerModule> = () => import('@kubekit/apiserver')): Promise<ApiServerModule> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' || !String((err as Error).message).includes('@kubekit/apiserver')) throw err;
    throw new CommandError('kubekit serve runs the embedded API server from @kubekit/apiserver, which is not installed: npm install --save-dev @kubekit/apiserver', exitCodes.usage);
  }
}
