import { createRequire } from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import { crdGenerate } from './commands/crdGenerate.js';
import { crdValidate } from './commands/crdValidate.js';
import { defaultObjects } from './commands/defaultObjects.js';
import { fields } from './commands/fields.js';
import { select } from './commands/select.js';
import { serve } from './commands/serve.js';
import { registerWebhookCommands } from './commands/webhookCommands.js';
import { exitCodes, exitCodesHelp } from './exitCodes.js';
import { CommandError, colorsFor } from './internal/context.js';
import type { CliContext, TextOutput } from './internal/context.js';

const version = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** Where `runCli` reads and writes; every field defaults to the process's own. */
export interface CliOptions {
  stdout?: TextOutput;
  stderr?: TextOutput;
  /** @defaultValue `process.cwd()` */
  cwd?: string;
  /** @defaultValue `process.env` */
  env?: Readonly<Record<string, string | undefined>>;
  /** The clock of AGE columns. @defaultValue `() => new Date()` */
  now?: () => Date;
  /** Reads standard input for `-f -`. @defaultValue reads `process.stdin` */
  readStdin?: () => Promise<string>;
  /** Stops `kubekit serve`. @defaultValue SIGINT or SIGTERM */
  signal?: AbortSignal;
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function contextFrom(options: CliOptions): CliContext {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  return {
    stdout,
    stderr,
    cwd: options.cwd ?? process.cwd(),
    env,
    now: options.now ?? (() => new Date()),
    readStdin: options.readStdin ?? readProcessStdin,
    signal: options.signal,
    colors: colorsFor(stderr, env),
    stdoutColors: colorsFor(stdout, env),
  };
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/**
 * The `kubekit` command tree (commander), writing through `ctx`. Each action stores its exit code in
 * `result.exitCode`; commander's own errors throw (`exitOverride`).
 */
export function createProgram(ctx: CliContext, result: { exitCode: number }): Command {
  const run = (action: () => Promise<number>) => async (): Promise<void> => {
    result.exitCode = await action();
  };
  const program = new Command('kubekit')
    .description('Declare custom resources in TypeScript; generate, validate and try out their CRDs offline.')
    .version(version, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
      outputError: (text, write) => write(ctx.colors.red(text)),
    })
    .showHelpAfterError('(run with --help for usage)');

  const crd = program.command('crd').description('generate and validate CustomResourceDefinitions');
  crd
    .command('generate')
    .description('load TypeScript or JavaScript modules and write a CRD for each @CustomResource kind they export')
    .argument('<modules...>', 'modules exporting @CustomResource classes (.ts, .mts, .js, .mjs)')
    .option('-o, --out <dir>', 'write <plural>.<group>.yaml files into this directory (default: print to stdout)')
    .option('--check', 'compare with the files in --out instead of writing; exit 1 when they differ')
    .option('--no-descriptions', 'do not take descriptions from doc comments')
    .option('--conversion-webhook-url <url>', 'clientConfig.url of the conversion webhook of kinds with a hub-and-spoke conversion')
    .option('--conversion-webhook-service <namespace/name[:port]>', 'the conversion webhook\'s service instead (path /convert)')
    .option('--ca-bundle-file <file>', 'the CA (PEM) that signed the conversion webhook\'s certificate, as caBundle')
    .addHelpText('after', '\nExample:\n  kubekit crd generate src/shirt.ts --out crd\n  kubekit crd generate src/shirt.ts --out crd --check   # in CI')
    .action((modules: string[], options: Parameters<typeof crdGenerate>[2]) => run(() => crdGenerate(ctx, modules, options))());
  crd
    .command('validate')
    .description('check CRD files with the apiserver\'s rules (structural schema, defaults, selectableFields, printer columns, …)')
    .argument('<files...>', 'YAML or JSON files holding CustomResourceDefinitions (- for stdin)')
    .action((files: string[]) => run(() => crdValidate(ctx, files))());

  program
    .command('fields')
    .description('list the field labels a resource accepts in field selectors, per version')
    .argument('<target>', 'a CRD file, or a built-in kind (Pod, v1/Pod, events.k8s.io/v1/Event)')
    .action((target: string) => run(() => fields(ctx, target))());

  program
    .command('select')
    .description('filter manifests offline with the apiserver\'s field and label selector semantics, printed as kubectl get')
    .requiredOption('-f, --filename <file>', 'objects to select from (repeatable; - for stdin)', collect)
    .requiredOption('--crd <file>', 'the CRDs of the objects (repeatable)', collect)
    .option('--field-selector <selector>', 'a field selector, such as spec.color=blue,spec.size!=XL')
    .option('-l, --selector <selector>', 'a label selector, such as app=shop,tier in (web)')
    .option('-n, --namespace <namespace>', 'only objects in this namespace (objects without one are in default)')
    .option('-A, --all-namespaces', 'show a NAMESPACE column')
    .addOption(new Option('-o, --output <format>', 'wide, name, yaml or json').choices(['wide', 'name', 'yaml', 'json']))
    .addHelpText('after', '\nExample:\n  kubekit select -f shirts.yaml --crd crd/shirts.stable.example.com.yaml --field-selector spec.color=blue')
    .action((options: Parameters<typeof select>[1]) => run(() => select(ctx, options))());

  program
    .command('default')
    .description('print objects as the apiserver would store them: unknown fields pruned, defaults applied')
    .requiredOption('-f, --filename <file>', 'objects to default (repeatable; - for stdin)', collect)
    .requiredOption('--crd <file>', 'the CRDs of the objects (repeatable)', collect)
    .action((options: Parameters<typeof defaultObjects>[1]) => run(() => defaultObjects(ctx, options))());

  program
    .command('serve')
    .description('run kubekit\'s embedded Kubernetes API server until interrupted')
    .option('-p, --port <port>', 'the TCP port (default: a free one)')
    .option('--host <address>', 'the address to bind', '127.0.0.1')
    .option('--data-dir <dir>', 'keep data in this directory (default: memory only)')
    .option('--kubeconfig-out <file>', 'write a kubeconfig for the server to this file')
    .option('--crd <file>', 'apply the CRDs of this file at start (repeatable)', collect)
    .option('--token <token>', 'require this bearer token (a request without one is the anonymous user, whom RBAC allows only /version and the health checks; visible to other users in the process list: prefer --token-file)')
    .option('--token-file <file>', 'require the bearer token on the first line of this file')
    .option('--tls', 'serve https with a certificate and self-signed CA generated at start (the kubeconfig carries the CA)')
    .option('-v, --verbose', 'log every request to stderr')
    .option('--feature-gates <gates>', 'as kube-apiserver\'s, e.g. CustomResourceFieldSelectors=false (repeatable; default: all on)', collect)
    .action((options: Parameters<typeof serve>[1]) => run(() => serve(ctx, options))());

  registerWebhookCommands(program, ctx, run);

  const withExitCodes = (command: Command): void => {
    command.addHelpText('after', exitCodesHelp);
    command.commands.forEach(withExitCodes);
  };
  withExitCodes(program);
  return program;
}

/**
 * Runs `kubekit` with the given arguments (without `node` and the script) and returns its exit code
 * (see {@link exitCodes}); it never calls `process.exit`, so tests and tools can run it in-process.
 *
 * @example
 * ```ts
 * const code = await runCli(['crd', 'validate', 'crd/shirts.stable.example.com.yaml']);
 * ```
 */
export async function runCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const ctx = contextFrom(options);
  const result = { exitCode: exitCodes.success as number };
  const program = createProgram(ctx, result);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return result.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      const helpOrVersion = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
      return helpOrVersion || err.exitCode === 0 ? exitCodes.success : exitCodes.usage;
    }
    if (err instanceof CommandError) {
      ctx.stderr.write(`${ctx.colors.red('error:')} ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
}
