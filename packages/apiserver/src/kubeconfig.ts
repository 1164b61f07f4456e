/**
 * The kubeconfig of an embedded API server, as YAML text that kubectl, client-go and
 * `@kubernetes/client-node` load.
 */
import { stringify } from 'yaml';

/** Options of {@link kubeconfigYAML}. */
export interface KubeconfigOptions {
  /** The server URL (`http://127.0.0.1:PORT`). */
  server: string;
  /** The bearer token, when the server requires one. @defaultValue none */
  token?: string;
  /** The name of the cluster, context and user. @defaultValue `kubekit` */
  name?: string;
  /** The context's namespace. @defaultValue `default` */
  namespace?: string;
}

/** A kubeconfig with one cluster, user and context, the current one. */
export function kubeconfigYAML(options: KubeconfigOptions): string {
  const name = options.name ?? 'kubekit';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    // client-node refuses plain http unless TLS verification is marked as skipped; kubectl ignores it.
    clusters: [{ name, cluster: options.server.startsWith('http:') ? { server: options.server, 'insecure-skip-tls-verify': true } : { server: options.server } }],
    users: [{ name, user: options.token === undefined ? {} : { token: options.token } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: options.namespace ?? 'default' } }],
    'current-context': name,
    preferences: {},
  }, { version: '1.1' });
}
