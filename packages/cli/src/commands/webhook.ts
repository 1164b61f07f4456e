import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { customResourceInfo, toYAML } from '@kubekit/decorators';
// @kubekit/webhook (and prom-client with it) loads only when a webhook command runs: other commands start faster.
import type { RuleWithOperations, WebhookClientConfig } from '@kubekit/webhook';
import { exitCodes } from '../exitCodes.js';
import { CommandError } from '../internal/context.js';
import type { CliContext } from '../internal/context.js';
import { displayPath } from '../internal/documents.js';
import { loadModules } from '../internal/loadModules.js';

/** The flags that say where a webhook server is, shared by `crd generate` and `webhook config`. */
export interface WebhookClientFlags {
  /** `https://host:port` (with a path for `crd generate`). */
  url?: string;
  /** `namespace/name[:port]`. */
  service?: string;
  /** A PEM file whose base64 becomes `caBundle`. */
  caBundleFile?: string;
}

const serviceForm = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)(?::(\d{1,5}))?$/;

/**
 * The `clientConfig` the flags describe (a service's path is `path`), or `undefined` without flags.
 *
 * @throws CommandError (usage) for both or a malformed `--…-service`, a missing CA file
 */
export async function clientConfigFromFlags(ctx: CliContext, flags: WebhookClientFlags, what: string, path?: string): Promise<WebhookClientConfig | undefined> {
  if (flags.url === undefined && flags.service === undefined) {
    if (flags.caBundleFile !== undefined) throw new CommandError(`--ca-bundle-file needs ${what}-url or ${what}-service`, exitCodes.usage);
    return undefined;
  }
  if (flags.url !== undefined && flags.service !== undefined) throw new CommandError(`give one of ${what}-url and ${what}-service, not both`, exitCodes.usage);
  const config: WebhookClientConfig = {};
  if (flags.url !== undefined) {
    config.url = flags.url;
  } else {
    const m = serviceForm.exec(flags.service!);
    if (m === null) throw new CommandError(`${what}-service ${JSON.stringify(flags.service)}: expected namespace/name or namespace/name:port`, exitCodes.usage);
    config.service = { namespace: m[1], name: m[3], ...(path === undefined ? {} : { path }), port: m[5] === undefined ? 443 : Number(m[5]) };
  }
  if (flags.caBundleFile !== undefined) {
    const file = resolve(ctx.cwd, flags.caBundleFile);
    let pem: string;
    try {
      pem = await readFile(file, 'utf8');
    } catch {
      throw new CommandError(`cannot read ${displayPath(ctx, file)}: no such file`, exitCodes.usage);
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new CommandError(`${displayPath(ctx, file)} holds no PEM certificate`, exitCodes.usage);
    config.caBundle = Buffer.from(pem, 'utf8').toString('base64');
  }
  return config;
}

/** Options of `kubekit webhook certs`. */
export interface WebhookCertsOptions {
  out: string;
  host?: string[];
  days?: string;
}

/**
 * `kubekit webhook certs --out DIR`: writes a development CA and serving certificate (`ca.crt`,
 * `ca.key`, `tls.crt`, `tls.key`) for 127.0.0.1 and localhost, or the `--host`s.
 */
export async function webhookCerts(ctx: CliContext, options: WebhookCertsOptions): Promise<number> {
  const days = options.days === undefined ? 365 : Number(options.days);
  if (!Number.isInteger(days) || days < 1) throw new CommandError(`--days ${JSON.stringify(options.days)}: expected a whole number of days, at least 1`, exitCodes.usage);
  const { generateCertificates, writeCertificates } = await import('@kubekit/webhook');
  let certs;
  try {
    certs = generateCertificates({ hosts: options.host, validityDays: days });
  } catch (err) {
    throw new CommandError(err instanceof Error ? err.message : String(err), exitCodes.usage);
  }
  const files = await writeCertificates(resolve(ctx.cwd, options.out), certs);
  for (const f of [files.caCertFile, files.caKeyFile, files.certFile, files.keyFile]) ctx.stdout.write(`${displayPath(ctx, f)}\n`);
  return exitCodes.success;
}

/** Options of `kubekit webhook config`. */
export interface WebhookConfigOptions extends WebhookClientFlags {
  name?: string;
  validate?: boolean;
  mutate?: boolean;
  operations?: string;
  failurePolicy?: 'Fail' | 'Ignore';
  timeoutSeconds?: string;
  out?: string;
}

const operationNames = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*']);

/**
 * `kubekit webhook config <modules…> --url … | --service …`: the Validating/MutatingWebhookConfiguration
 * YAML for the `@CustomResource` kinds the modules export (one rule per kind, every version).
 */
export async function webhookConfig(ctx: CliContext, modules: readonly string[], options: WebhookConfigOptions): Promise<number> {
  const clientConfig = await clientConfigFromFlags(ctx, options, '-');
  if (clientConfig === undefined) throw new CommandError('say where the webhook server is: --url https://host:port or --service namespace/name[:port]', exitCodes.usage);
  const operations = (options.operations ?? 'CREATE,UPDATE').split(',').map((o) => o.trim().toUpperCase());
  for (const o of operations) {
    if (!operationNames.has(o)) throw new CommandError(`--operations: unsupported operation ${JSON.stringify(o)}: supported values: "CREATE", "UPDATE", "DELETE", "CONNECT", "*"`, exitCodes.usage);
  }
  const loaded = await loadModules(ctx, modules);
  if (loaded.resources.length === 0) throw new CommandError(`no @CustomResource classes are exported by ${loaded.files.map((f) => displayPath(ctx, f)).join(', ')}`, exitCodes.failure);
  const kinds = new Map<string, RuleWithOperations>();
  for (const { cls } of loaded.resources) {
    const info = customResourceInfo(cls);
    const key = `${info.plural}.${info.group}`;
    const rule = kinds.get(key) ?? { operations: operations as RuleWithOperations['operations'], apiGroups: [info.group], apiVersions: [], resources: [info.plural], scope: info.scope };
    if (!rule.apiVersions.includes(info.version)) rule.apiVersions.push(info.version);
    kinds.set(key, rule);
  }
  const name = options.name ?? [...kinds.keys()][0];
  const { webhookConfigurations } = await import('@kubekit/webhook');
  const both = options.validate !== true && options.mutate !== true;
  let objects;
  try {
    objects = webhookConfigurations({
      name,
      clientConfig,
      rules: [...kinds.values()],
      validatePath: both || options.validate === true ? '/validate' : false,
      mutatePath: both || options.mutate === true ? '/mutate' : false,
      failurePolicy: options.failurePolicy,
      timeoutSeconds: options.timeoutSeconds === undefined ? undefined : Number(options.timeoutSeconds),
    });
  } catch (err) {
    throw new CommandError(err instanceof Error ? err.message : String(err), exitCodes.usage);
  }
  const text = `# Generated by \`kubekit webhook config\`. Do not edit.\n${toYAML(objects)}`;
  if (options.out === undefined) {
    ctx.stdout.write(text);
  } else {
    const file = resolve(ctx.cwd, options.out);
    await writeFile(file, text);
    ctx.stdout.write(`${displayPath(ctx, file)}\n`);
  }
  return exitCodes.success;
}
