/**
 * `@kubekit/cli`: the `kubekit` command. `kubekit crd generate` turns `@CustomResource` classes into
 * CRD YAML (with `--check` for CI), `kubekit crd validate` checks any CRD with the apiserver's rules,
 * `kubekit fields` lists what field selectors a resource accepts, `kubekit select` and
 * `kubekit default` show offline what the apiserver would select and store, and `kubekit serve` runs
 * the embedded API server.
 *
 * Start with {@link runCli}; the exit codes are in {@link exitCodes}.
 *
 * @packageDocumentation
 */

export { runCli, createProgram } from './program.js';
export { exitCodes } from './exitCodes.js';
export { crdGenerate } from './commands/crdGenerate.js';
export { crdValidate } from './commands/crdValidate.js';
export { defaultObjects } from './commands/defaultObjects.js';
export { fields } from './commands/fields.js';
export { select } from './commands/select.js';
export { serve } from './commands/serve.js';

export type { CliOptions } from './program.js';
export type { ExitCode } from './exitCodes.js';
export type { CliContext, Colors, TextOutput } from './internal/context.js';
export type { CrdGenerateOptions } from './commands/crdGenerate.js';
export type { DefaultOptions } from './commands/defaultObjects.js';
export type { SelectOptions } from './commands/select.js';
export type { ServeOptions } from './commands/serve.js';
