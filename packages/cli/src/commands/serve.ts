import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Logger } from '@kubekit/core';
import { validateCustomResourceDefinition } from '@kubekit/crd';
import { exitCodes } from '../exitCodes.js';
import { CommandError } from '../internal/context.js';
import type { CliContext } from '../internal/context.js';
import { displayPath, readDefinitions } from '../internal/documents.js';
import { parseFeatureGates } from '../internal/featureGates.js';
import { loadApiServer } from '../internal/loadApiServer.js';

/** Options of `kubekit serve`. */
export interface ServeOptions {
  /** The TCP port. @defaultValue 0 (a free port, printed) */
  port?: string;
  /** The address to bind. @defaultValue `127.0.0.1` */
  host?: string;
  /** A directory for durable storage. @defaultValue memory only */
  dataDir?: string;
  /** Write a kubeconfig for the server to this file. @defaultValue none */
  kubeconfigOut?: string;
  /** CRD files to apply (server-side) once the server is up, so a restart over a data dir works. @defaultValue none */
  crd?: string[];
  /** A bearer token every request must carry (but /version and the health checks). @defaultValue none */
  token?: string;
  /** A file holding the bearer token (its first line). @defaultValue none */
  tokenFile?: string;
  /** Serve https with a certificate and self-signed CA generated at start; the kubeconfig carries the CA. @defaultValue false */
  tls?: boolean;
  /** Log every request to stderr. @defaultValue false */
  verbose?: boolean;
  /** kube-apiserver's `--feature-gates` (`CustomResourceFieldSelectors=false`). @defaultValue every gate on */
  featureGates?: string[];
}

function stderrLogger(ctx: CliContext, fields: Record<string, unknown> = {}): Logger {
  const line = (level: string) => (message: string, more?: Record<string, unknown>): void => {
    const all = { ...fields, ...more };
    const suffix = Object.keys(all).length > 0 ? ` ${JSON.stringify(all)}` : '';
    ctx.stderr.write(`${level} ${message}${suffix}\n`);
  };
  return { error: line('E'), warn: line('W'), info: line('I'), debug: () => {}, child: (more) => stderrLogger(ctx, { ...fields, ...more }) };
}

/** Waits for the signal of the context, or for SIGINT/SIGTERM when there is none. */
function untilStopped(ctx: CliContext): Promise<void> {
  return new Promise((done) => {
    if (ctx.signal !== undefined) {
      if (ctx.signal.aborted) done();
      else ctx.signal.addEventListener('abort', () => done(), { once: true });
      return;
    }
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * `kubekit serve`: runs kubekit's embedded Kubernetes API server until interrupted (SIGINT/SIGTERM),
 * printing its URL, optionally writing a kubeconfig and creating CRDs from files.
 *
 * @returns 0 after a clean stop, 1 when a CRD is rejected
 */
export async function serve(ctx: CliContext, options: ServeOptions): Promise<number> {
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CommandError(`--port must be a port number, got ${JSON.stringify(options.port)}`, exitCodes.usage);
  const gates = parseFeatureGates(options.featureGates);
  const definitions = options.crd === undefined || options.crd.length === 0 ? [] : await readDefinitions(ctx, options.crd);
  // Checked here as well as by the server, so a bad file fails before anything starts.
  let invalid = 0;
  for (const { crd, file } of definitions) {
    const errors = validateCustomResourceDefinition(crd);
    if (errors.length === 0) continue;
    invalid++;
    ctx.stderr.write(`${ctx.colors.red('error:')} ${displayPath(ctx, file)}: The CustomResourceDefinition "${crd.metadata.name ?? ''}" is invalid:\n`);
    for (const error of errors) ctx.stderr.write(`* ${error.toString()}\n`);
  }
  if (invalid > 0) return exitCodes.failure;
  const token = await readToken(ctx, options);
  const host = options.host ?? '127.0.0.1';
  const { startApiServer, DataDirectoryError, isLoopback } = await loadApiServer();
  let server: Awaited<ReturnType<typeof startApiServer>>;
  try {
    server = await startApiServer({
      port,
      host,
      token,
      tls: options.tls === true,
      dataDir: options.dataDir === undefined ? undefined : resolve(ctx.cwd, options.dataDir),
      logger: options.verbose === true ? stderrLogger(ctx) : undefined,
      customResourceFieldSelectors: gates.CustomResourceFieldSelectors,
    });
  } catch (err) {
    if (err instanceof DataDirectoryError) throw new CommandError(err.message, exitCodes.failure);
    throw err;
  }
  if (token === undefined && !isLoopback(host)) {
    ctx.stderr.write(`${ctx.colors.yellow('warning:')} serving on ${host} without --token: anyone who can reach this address can read, change and delete everything. Pass --token or --token-file.\n`);
  }
  try {
    for (const { crd, file } of definitions) {
      // Applied, not created: a restart over a data directory finds the CRDs already there.
      const name = crd.metadata.name ?? '';
      const headers: Record<string, string> = { 'content-type': 'application/apply-patch+yaml' };
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      const response = await serverFetch(server, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(name)}?fieldManager=kubekit-serve&force=true`, {
        method: 'PATCH', headers, body: JSON.stringify(crd),
      });
      const body = (await response.json()) as { message?: string; metadata?: { generation?: number } };
      if (!response.ok) {
        ctx.stderr.write(`${ctx.colors.red('error:')} ${displayPath(ctx, file)}: ${body.message ?? response.statusText}\n`);
        return exitCodes.failure;
      }
      const verb = response.status === 201 ? 'created' : 'serverside-applied';
      ctx.stdout.write(`customresourcedefinition.apiextensions.k8s.io/${name} ${verb}\n`);
    }
    if (options.kubeconfigOut !== undefined) {
      const file = resolve(ctx.cwd, options.kubeconfigOut);
      try {
        await writePrivateFile(file, server.kubeconfig);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === 'ELOOP' ? 'it is a symbolic link (not followed: write to the file itself)' : (err as Error).message;
        throw new CommandError(`--kubeconfig-out: cannot write ${displayPath(ctx, file)}: ${why}`, exitCodes.failure);
      }
      ctx.stdout.write(`kubeconfig written to ${displayPath(ctx, file)}\n`);
    }
    ctx.stdout.write(`kubekit API server listening on ${ctx.stdoutColors.bold(server.url)} (Ctrl-C to stop)\n`);
    await untilStopped(ctx);
    return exitCodes.success;
  } finally {
    await server.close();
  }
}

/** The token of `--token` or `--token-file` (its first line), refusing both at once and an empty one. */
async function readToken(ctx: CliContext, options: ServeOptions): Promise<string | undefined> {
  if (options.token !== undefined && options.tokenFile !== undefined) {
    throw new CommandError('--token and --token-file cannot both be given', exitCodes.usage);
  }
  let token = options.token;
  if (options.tokenFile !== undefined) {
    const file = resolve(ctx.cwd, options.tokenFile);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new CommandError(`--token-file: cannot read ${displayPath(ctx, file)}: ${(err as Error).message}`, exitCodes.usage);
    }
    token = text.split(/\r?\n/)[0].trim();
    if (token === '') throw new CommandError(`--token-file: ${displayPath(ctx, file)} holds no token on its first line`, exitCodes.usage);
  }
  if (token !== undefined && (token === '' || /[\s\x00-\x1f\x7f]/.test(token))) {
    throw new CommandError('--token must be non-empty, without spaces or control characters (it travels in an HTTP header)', exitCodes.usage);
  }
  return token;
}

/**
 * Writes a file readable by its owner only, also over an existing file (whose mode is tightened, not
 * kept), never through a symbolic link at its name.
 */
async function writePrivateFile(file: string, text: string): Promise<void> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** A request to the server just started, trusting its own certificate when it serves https. */
async function serverFetch(server: { url: string; certificateAuthority: string | undefined }, path: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ ok: boolean; status: number; statusText: string; json(): Promise<unknown> }> {
  if (server.certificateAuthority === undefined) return fetch(`${server.url}${path}`, init);
  const { request } = await import('node:https');
  return new Promise((resolvePromise, reject) => {
    const req = request(`${server.url}${path}`, { method: init.method, headers: init.headers, ca: server.certificateAuthority }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        resolvePromise({ ok: status >= 200 && status < 300, status, statusText: res.statusMessage ?? '', json: () => Promise.resolve(JSON.parse(text) as unknown) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
