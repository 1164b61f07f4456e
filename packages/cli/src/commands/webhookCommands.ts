import { Option, type Command } from 'commander';
import type { CliContext } from '../internal/context.js';
import { webhookCerts, webhookConfig } from './webhook.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Registers `kubekit webhook certs` and `kubekit webhook config` on `program`. */
export function registerWebhookCommands(program: Command, ctx: CliContext, run: (action: () => Promise<number>) => () => Promise<void>): void {
  const webhook = program.command('webhook').description('development certificates and admission webhook configurations for @kubekit/webhook servers');
  webhook
    .command('certs')
    .description('write a self-signed CA and a serving certificate (ca.crt, ca.key, tls.crt, tls.key)')
    .requiredOption('-o, --out <dir>', 'the directory to write into')
    .option('--host <host>', 'an IP address or DNS name the certificate is for (repeatable; default: 127.0.0.1 and localhost)', collect)
    .option('--days <days>', 'validity in days', '365')
    .addHelpText('after', '\nExample:\n  kubekit webhook certs --out .certs\n  kubekit webhook certs --out certs --host shirts-webhook.shop.svc')
    .action((options: Parameters<typeof webhookCerts>[1]) => run(() => webhookCerts(ctx, options))());
  webhook
    .command('config')
    .description('print ValidatingWebhookConfiguration and MutatingWebhookConfiguration YAML for the @CustomResource kinds of modules')
    .argument('<modules...>', 'modules exporting @CustomResource classes (.ts, .mts, .js, .mjs)')
    .option('--url <url>', 'the webhook server\'s base URL (https://host:port); /validate and /mutate are appended')
    .option('--service <namespace/name[:port]>', 'the webhook server\'s service instead')
    .option('--ca-bundle-file <file>', 'the CA (PEM) that signed the server\'s certificate, as caBundle')
    .option('--name <name>', 'metadata.name of the configurations (default: <plural>.<group> of the first kind)')
    .option('--validate', 'only the ValidatingWebhookConfiguration')
    .option('--mutate', 'only the MutatingWebhookConfiguration')
    .option('--operations <ops>', 'comma-separated operations the webhooks see', 'CREATE,UPDATE')
    .addOption(new Option('--failure-policy <policy>', 'what the apiserver does when the webhook fails').choices(['Fail', 'Ignore']))
    .option('--timeout-seconds <seconds>', 'the apiserver\'s timeout for each call (1-30)')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .addHelpText('after', '\nExample:\n  kubekit webhook config src/shirt.ts --url https://127.0.0.1:9443 --ca-bundle-file .certs/ca.crt')
    .action((modules: string[], options: Parameters<typeof webhookConfig>[2]) => run(() => webhookConfig(ctx, modules, options))());
}
