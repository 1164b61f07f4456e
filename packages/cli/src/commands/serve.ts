import { writeFile } from 'node:fs/promises';
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
  /** CRD files to create once the server is up. @defaultValue none */
  crd?: string[];
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
  const { startApiServer } = await loadApiServer();
  const server = await startApiServer({
    port,
    host: options.host ?? '127.0.0.1',
    dataDir: options.dataDir === undefined ? undefined : resolve(ctx.cwd, options.dataDir),
    logger: options.verbose === true ? stderrLogger(ctx) : undefined,
    customResourceFieldSelectors: gates.CustomResourceFieldSelectors,
  });
  try {
    for (const { crd, file } of definitions) {
      const response = await fetch(`${server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(crd),
      });
      const body = (await response.json()) as { message?: string };
      if (!response.ok) {
        ctx.stderr.write(`${ctx.colors.red('error:')} ${displayPath(ctx, file)}: ${body.message ?? response.statusText}\n`);
        return exitCodes.failure;
      }
      ctx.stdout.write(`customresourcedefinition.apiextensions.k8s.io/${crd.metadata.name ?? ''} created\n`);
    }
    if (options.kubeconfigOut !== undefined) {
      const file = resolve(ctx.cwd, options.kubeconfigOut);
      await writeFile(file, server.kubeconfig, { mode: 0o600 });
      ctx.stdout.write(`kubeconfig written to ${displayPath(ctx, file)}\n`);
    }
    ctx.stdout.write(`kubekit API server listening on ${ctx.stdoutColors.bold(server.url)} (Ctrl-C to stop)\n`);
    await untilStopped(ctx);
    return exitCodes.success;
  } finally {
    await server.close();
  }
}
