import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { KubeError, realClock, type Clock } from '@kubekit/core';
import type { KubeConfigCluster, KubeConfigLike } from '../kubeConfig.js';

/** The in-cluster service account directory. */
export const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

interface NamedCluster {
  name: string;
  cluster: {
    server?: string;
    'certificate-authority'?: string;
    'certificate-authority-data'?: string;
    'insecure-skip-tls-verify'?: boolean;
    'tls-server-name'?: string;
    'proxy-url'?: string;
  };
}

interface ExecConfig {
  apiVersion?: string;
  command: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  provideClusterInfo?: boolean;
}

interface NamedUser {
  name: string;
  user: {
    token?: string;
    tokenFile?: string;
    'client-certificate'?: string;
    'client-certificate-data'?: string;
    'client-key'?: string;
    'client-key-data'?: string;
    username?: string;
    password?: string;
    as?: string;
    'as-groups'?: string[];
    exec?: ExecConfig;
    'auth-provider'?: unknown;
  };
}

interface NamedContext {
  name: string;
  context: { cluster: string; user: string; namespace?: string };
}

/** A parsed kubeconfig document, with the directory its relative paths are relative to. */
export interface KubeConfigDocument {
  clusters: NamedCluster[];
  users: NamedUser[];
  contexts: NamedContext[];
  currentContext: string | undefined;
  baseDir: string;
}

/** Thrown when a kubeconfig needs something kubekit's reader does not do; the caller falls back to client-node. */
export class UnsupportedKubeConfig extends Error {
  override name = 'UnsupportedKubeConfig';
}

function asArray<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

/** Parses kubeconfig YAML text. */
export async function parseKubeConfig(text: string, baseDir: string): Promise<KubeConfigDocument> {
  const { parse } = await import('yaml');
  const doc = (parse(text) ?? {}) as Record<string, unknown>;
  return {
    clusters: asArray<NamedCluster>(doc.clusters).filter((c) => c && typeof c.name === 'string' && c.cluster),
    users: asArray<NamedUser>(doc.users).filter((u) => u && typeof u.name === 'string').map((u) => ({ name: u.name, user: u.user ?? {} })),
    contexts: asArray<NamedContext>(doc.contexts).filter((c) => c && typeof c.name === 'string' && c.context),
    currentContext: typeof doc['current-context'] === 'string' ? doc['current-context'] : undefined,
    baseDir,
  };
}

/** Merges kubeconfig files as `$KUBECONFIG` does: the first to define a name wins, and the first current-context. */
export function mergeKubeConfigs(docs: KubeConfigDocument[]): KubeConfigDocument {
  const merged: KubeConfigDocument = { clusters: [], users: [], contexts: [], currentContext: undefined, baseDir: docs[0]?.baseDir ?? process.cwd() };
  for (const d of docs) {
    const abs = <T extends { name: string }>(items: T[], into: T[], fix: (item: T) => T): void => {
      for (const item of items) if (!into.some((x) => x.name === item.name)) into.push(fix(item));
    };
    const path = (p: string | undefined): string | undefined => (p === undefined || isAbsolute(p) ? p : join(d.baseDir, p));
    abs(d.clusters, merged.clusters, (c) => ({ ...c, cluster: { ...c.cluster, 'certificate-authority': path(c.cluster['certificate-authority']) } }));
    abs(d.users, merged.users, (u) => ({ ...u, user: { ...u.user, tokenFile: path(u.user.tokenFile), 'client-certificate': path(u.user['client-certificate']), 'client-key': path(u.user['client-key']) } }));
    abs(d.contexts, merged.contexts, (c) => c);
    merged.currentContext ??= d.currentContext;
  }
  return merged;
}

/** The kubeconfig files of `$KUBECONFIG`, else `~/.kube/config`, that exist. */
export function defaultKubeConfigFiles(): string[] {
  const env = process.env.KUBECONFIG;
  const candidates = env !== undefined && env !== '' ? env.split(delimiter).filter((p) => p !== '') : [join(homedir(), '.kube', 'config')];
  return candidates.filter((p) => {
    try {
      readFileSync(p);
      return true;
    } catch {
      return false;
    }
  });
}

/** The in-cluster configuration as a kubeconfig document, or `undefined` when not in a cluster. */
export function inClusterDocument(dir = serviceAccountDir): KubeConfigDocument | undefined {
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) return undefined;
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    clusters: [{ name: 'in-cluster', cluster: { server, 'certificate-authority': join(dir, 'ca.crt') } }],
    users: [{ name: 'in-cluster', user: { tokenFile: join(dir, 'token') } }],
    contexts: [{ name: 'in-cluster', context: { cluster: 'in-cluster', user: 'in-cluster' } }],
    currentContext: 'in-cluster',
    baseDir: dir,
  };
}

interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expiresAt: number;
}

/** How long file contents (token files, CA bundles, client certificates) are reused before rereading. */
const fileTtlMs = 60_000;

/**
 * A `KubeConfigLike` read by kubekit itself: bearer tokens and token files (reread every minute, as
 * client-go does, so projected service-account tokens rotate), client certificates, CA bundles,
 * `insecure-skip-tls-verify`, `tls-server-name`, basic auth, impersonation, and exec credential plugins
 * (`client.authentication.k8s.io`, cached until their expiry). It does not do legacy `auth-provider`
 * plugins or `proxy-url`; {@link loadKubeConfig} hands those to `@kubernetes/client-node`.
 */
export class KubekitKubeConfig implements KubeConfigLike {
  private readonly cluster: NamedCluster['cluster'];
  private readonly user: NamedUser['user'];
  private readonly files = new Map<string, { at: number; data: Buffer }>();
  private readonly decodedData = new Map<string, Buffer>();
  private exec: Promise<ExecCredential> | undefined;
  /** The namespace of the current context, if it names one. */
  readonly namespace: string | undefined;
  /** The name of the context in use. */
  readonly contextName: string;

  constructor(doc: KubeConfigDocument, context: string | undefined, private readonly clock: Clock = realClock) {
    const name = context ?? doc.currentContext;
    if (name === undefined) throw KubeError.badRequest('the kubeconfig has no current-context');
    const ctx = doc.contexts.find((c) => c.name === name);
    if (ctx === undefined) throw KubeError.badRequest(`context "${name}" does not exist in the kubeconfig`);
    const cluster = doc.clusters.find((c) => c.name === ctx.context.cluster);
    if (cluster === undefined || !cluster.cluster.server) throw KubeError.badRequest(`cluster "${ctx.context.cluster}" of context "${name}" does not exist or has no server`);
    const user = doc.users.find((u) => u.name === ctx.context.user)?.user ?? {};
    if (user['auth-provider'] !== undefined) throw new UnsupportedKubeConfig('auth-provider plugins');
    if (cluster.cluster['proxy-url'] !== undefined) throw new UnsupportedKubeConfig('proxy-url');
    this.cluster = cluster.cluster;
    this.user = user;
    this.namespace = ctx.context.namespace;
    this.contextName = name;
  }

  getCurrentCluster(): KubeConfigCluster {
    return {
      server: this.cluster.server!,
      skipTLSVerify: this.cluster['insecure-skip-tls-verify'] === true,
      tlsServerName: this.cluster['tls-server-name'],
    };
  }

  async applyToHTTPSOptions(options: RequestOptions): Promise<void> {
    const headers = (options.headers ??= {}) as Record<string, string | string[]>;
    const c = this.cluster;
    const u = this.user;
    const ca = c['certificate-authority-data'] !== undefined ? this.decoded(c['certificate-authority-data']) : this.file(c['certificate-authority']);
    if (ca !== undefined) options.ca = ca;
    if (c['insecure-skip-tls-verify'] === true) options.rejectUnauthorized = false;
    if (c['tls-server-name'] !== undefined) options.servername = c['tls-server-name'];
    const cert = u['client-certificate-data'] !== undefined ? this.decoded(u['client-certificate-data']) : this.file(u['client-certificate']);
    const key = u['client-key-data'] !== undefined ? this.decoded(u['client-key-data']) : this.file(u['client-key']);
    if (cert !== undefined) options.cert = cert;
    if (key !== undefined) options.key = key;
    let token = u.token;
    if (token === undefined && u.tokenFile !== undefined) token = this.file(u.tokenFile)?.toString('utf8').trim();
    if (u.exec !== undefined) {
      const cred = await this.execCredential(u.exec);
      if (cred.token !== undefined) token = cred.token;
      if (cred.clientCertificateData !== undefined) options.cert = cred.clientCertificateData;
      if (cred.clientKeyData !== undefined) options.key = cred.clientKeyData;
    }
    if (token !== undefined && token !== '') headers['Authorization'] = `Bearer ${token}`;
    else if (u.username !== undefined) options.auth = `${u.username}:${u.password ?? ''}`;
    if (u.as !== undefined) headers['Impersonate-User'] = u.as;
    if (u['as-groups'] !== undefined) headers['Impersonate-Group'] = u['as-groups'];
  }

  /**
   * Base64 data of the kubeconfig, decoded once: the same instance on every request, so that the
   * REST client sees unchanged TLS settings without comparing their bytes.
   */
  private decoded(base64: string): Buffer {
    let data = this.decodedData.get(base64);
    if (data === undefined) this.decodedData.set(base64, (data = Buffer.from(base64, 'base64')));
    return data;
  }

  private file(path: string | undefined): Buffer | undefined {
    if (path === undefined) return undefined;
    const now = this.clock.now();
    const cached = this.files.get(path);
    if (cached !== undefined && now - cached.at < fileTtlMs) return cached.data;
    const data = readFileSync(path);
    this.files.set(path, { at: now, data });
    return data;
  }

  private execCredential(exec: ExecConfig): Promise<ExecCredential> {
    const current = this.exec;
    if (current !== undefined) {
      return current.then((cred) => (cred.expiresAt > this.clock.now() ? cred : this.runExec(exec)), () => this.runExec(exec));
    }
    return this.runExec(exec);
  }

  private runExec(exec: ExecConfig): Promise<ExecCredential> {
    const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
    const info: Record<string, unknown> = { apiVersion, kind: 'ExecCredential', spec: { interactive: false } };
    if (exec.provideClusterInfo === true) {
      (info.spec as Record<string, unknown>).cluster = {
        server: this.cluster.server,
        'certificate-authority-data': this.cluster['certificate-authority-data'],
        'insecure-skip-tls-verify': this.cluster['insecure-skip-tls-verify'],
        'tls-server-name': this.cluster['tls-server-name'],
      };
    }
    const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
    for (const e of exec.env ?? []) env[e.name] = e.value;
    const running = new Promise<ExecCredential>((resolve, reject) => {
      execFile(exec.command, exec.args ?? [], { env, timeout: 60_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        if (err !== null) {
          reject(new KubeError('Unauthorized', `exec credential plugin ${exec.command} failed: ${err.message}${stderr ? `: ${stderr.trim()}` : ''}`, { cause: err }));
          return;
        }
        try {
          const out = JSON.parse(stdout) as { status?: { token?: string; clientCertificateData?: string; clientKeyData?: string; expirationTimestamp?: string } };
          const s = out.status ?? {};
          if (s.token === undefined && s.clientCertificateData === undefined) throw new Error('the ExecCredential has neither a token nor a client certificate');
          const expiry = s.expirationTimestamp === undefined ? Number.POSITIVE_INFINITY : Date.parse(s.expirationTimestamp);
          // Renew ten seconds early; an expiry already past means "use once".
          const ttl = Number.isFinite(expiry) ? Math.max(0, expiry - Date.now() - 10_000) : Number.POSITIVE_INFINITY;
          resolve({ token: s.token, clientCertificateData: s.clientCertificateData, clientKeyData: s.clientKeyData, expiresAt: this.clock.now() + ttl });
        } catch (parseErr) {
          reject(new KubeError('Unauthorized', `exec credential plugin ${exec.command} printed no usable ExecCredential: ${(parseErr as Error).message}`, { cause: parseErr }));
        }
      });
    });
    this.exec = running;
    return running;
  }
}

/** Reads a kubeconfig file into a document whose relative paths resolve against the file's directory. */
export async function readKubeConfigFile(path: string): Promise<KubeConfigDocument> {
  return mergeKubeConfigs([await parseKubeConfig(readFileSync(path, 'utf8'), dirname(path))]);
}
