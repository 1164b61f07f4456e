import type { RequestOptions } from 'node:https';
import { KubeError, type Clock } from '@kubekit/core';
import { importClientNode } from './internal/clientNode.js';
import * as reader from './internal/kubeConfigReader.js';

/**
 * The part of `@kubernetes/client-node`'s `KubeConfig` that kubekit uses, present in both its 1.x and
 * 2.x lines: the current cluster, and `applyToHTTPSOptions`, which fills in the credentials (tokens,
 * client certificates, CA bundles, exec and auth-provider plugins) for one request.
 *
 * kubekit never imports `@kubernetes/client-node` at run time unless {@link loadKubeConfig} needs it,
 * so importing `@kubekit/informer` stays light; {@link loadKubeConfig} returns one of these.
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

/** Options of {@link loadKubeConfig}. */
export interface LoadKubeConfigOptions {
  /**
   * Who reads the kubeconfig. `'kubekit'`: kubekit's own small reader (YAML, tokens and token files,
   * client certificates, CA bundles, exec credential plugins, in-cluster service accounts), which
   * costs about 1 MB of heap; a kubeconfig it cannot serve (legacy `auth-provider` plugins,
   * `proxy-url`) goes to `@kubernetes/client-node` instead. `'client-node'`: always
   * `@kubernetes/client-node`'s `KubeConfig`, which pulls in its whole generated API (about 35 MB).
   * @defaultValue 'kubekit'
   */
  reader?: 'kubekit' | 'client-node';
  /** Use this context instead of the current one (kubekit's reader only). @defaultValue current-context */
  context?: string;
  /** The clock for rereading token files (kubekit's reader only). @defaultValue the real clock */
  clock?: Clock;
  /** The service account directory for `{ kind: 'cluster' }`. @defaultValue /var/run/secrets/kubernetes.io/serviceaccount */
  serviceAccountDir?: string;
}

/**
 * Loads a kubeconfig: the default chain (`$KUBECONFIG` files merged, else `~/.kube/config`, else the
 * in-cluster service account), a file, YAML text, or the in-cluster configuration. By default kubekit
 * reads it itself and only imports `@kubernetes/client-node` (a peer dependency) for what it cannot do.
 *
 * @throws KubeError (`BadRequest`) when there is no kubeconfig, or its context, cluster or server is missing.
 * @example
 * ```ts
 * const kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
 * const shirts = new Informer(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts' });
 * ```
 */
export async function loadKubeConfig(source: KubeConfigSource = { kind: 'default' }, options: LoadKubeConfigOptions = {}): Promise<KubeConfigLike> {
  if (options.reader !== 'client-node') {
    try {
      let doc;
      switch (source.kind) {
        case 'string': doc = reader.mergeKubeConfigs([await reader.parseKubeConfig(source.text, process.cwd())]); break;
        case 'file': doc = await reader.readKubeConfigFile(source.path); break;
        case 'cluster': doc = reader.inClusterDocument(options.serviceAccountDir); break;
        case 'default': {
          const files = reader.defaultKubeConfigFiles();
          doc = files.length > 0 ? reader.mergeKubeConfigs(await Promise.all(files.map((f) => reader.readKubeConfigFile(f)))) : reader.inClusterDocument(options.serviceAccountDir);
          break;
        }
      }
      if (doc === undefined) throw KubeError.badRequest(source.kind === 'cluster' ? 'not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set' : 'no kubeconfig found: $KUBECONFIG, ~/.kube/config, or an in-cluster service account');
      return new reader.KubekitKubeConfig(doc, options.context, options.clock);
    } catch (err) {
      if (!(err instanceof reader.UnsupportedKubeConfig)) throw err;
    }
  }
  const { KubeConfig } = await importClientNode();
  const kc = new KubeConfig();
  switch (source.kind) {
    case 'default': kc.loadFromDefault(); break;
    case 'file': kc.loadFromFile(source.path); break;
    case 'string': kc.loadFromString(source.text); break;
    case 'cluster': kc.loadFromCluster(); break;
  }
  return kc;
}
