import type { RequestOptions } from 'node:https';

/**
 * The part of `@kubernetes/client-node`'s `KubeConfig` that kubekit uses, present in both its 1.x and
 * 2.x lines: the current cluster, and `applyToHTTPSOptions`, which fills in the credentials (tokens,
 * client certificates, CA bundles, exec and auth-provider plugins) for one request.
 *
 * kubekit only ever receives a `KubeConfig`; it never imports `@kubernetes/client-node` at run time
 * unless you call {@link loadKubeConfig}, so importing `@kubekit/informer` stays light.
 */
export interface KubeConfigLike {
  /** The cluster of the current context (`server`, `skipTLSVerify`, `tlsServerName`, `proxyUrl`). */
  getCurrentCluster(): KubeConfigCluster | null;
  /** Applies the current user's credentials and the cluster's TLS settings to request options. */
  applyToHTTPSOptions(options: RequestOptions): Promise<void>;
}

/** The fields of a kubeconfig cluster that kubekit reads. */
export interface KubeConfigCluster {
  readonly server: string;
  readonly skipTLSVerify?: boolean;
  readonly tlsServerName?: string;
  readonly proxyUrl?: string;
}

/** Where {@link loadKubeConfig} reads from. */
export type KubeConfigSource =
  | { kind: 'default' }
  | { kind: 'file'; path: string }
  | { kind: 'string'; text: string }
  | { kind: 'cluster' };

/**
 * Loads a `KubeConfig` of `@kubernetes/client-node` (a peer dependency, imported here lazily): the
 * default chain (`$KUBECONFIG`, `~/.kube/config`, in-cluster service account), a file, YAML text, or
 * the in-cluster configuration.
 *
 * @example
 * ```ts
 * const kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
 * ```
 */
export async function loadKubeConfig(source: KubeConfigSource = { kind: 'default' }): Promise<KubeConfigLike> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  switch (source.kind) {
    case 'default': kc.loadFromDefault(); break;
    case 'file': kc.loadFromFile(source.path); break;
    case 'string': kc.loadFromString(source.text); break;
    case 'cluster': kc.loadFromCluster(); break;
  }
  return kc;
}
