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
  /** The PEM certificate(s) to trust for an `https` server (`certificate-authority-data`). @defaultValue none */
  certificateAuthority?: string;
}

/** A kubeconfig with one cluster, user and context, the current one. */
export function kubeconfigYAML(options: KubeconfigOptions): string {
  const name = options.name ?? 'kubekit';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: clusterOf(options) }],
    users: [{ name, user: userOf(options, name) }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: options.namespace ?? 'default' } }],
    'current-context': name,
    preferences: {},
  }, { version: '1.1' });
}

/**
 * The user: the server's token; for an `https` server without one, a username alone, which the server
 * ignores (it takes every request without a token as its own), because kubectl asks for a username on the
 * terminal (waiting on stdin) when a TLS kubeconfig's user has no credential at all.
 */
function userOf(options: KubeconfigOptions, name: string): Record<string, string> {
  if (options.token !== undefined) return { token: options.token };
  return options.server.startsWith('https:') ? { username: name } : {};
}

function clusterOf(options: KubeconfigOptions): Record<string, unknown> {
  // @kubernetes/client-node refuses a plain-http server unless TLS verification is marked as skipped
  // (there is no TLS to verify); kubectl and client-go ignore the flag for http. An https server is
  // verified against its CA, never skipped.
  if (options.server.startsWith('http:')) return { server: options.server, 'insecure-skip-tls-verify': true };
  if (options.certificateAuthority !== undefined) {
    return { server: options.server, 'certificate-authority-data': Buffer.from(options.certificateAuthority).toString('base64') };
  }
  return { server: options.server };
}
