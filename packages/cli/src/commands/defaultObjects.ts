import { KubeError } from '@kubekit/core';
import { validateCustomResource } from '@kubekit/crd';
import { toYAML } from '@kubekit/decorators';
import { exitCodes } from '../exitCodes.js';
import type { CliContext } from '../internal/context.js';
import { displayPath, nameOf, readDefinitions, readObjects } from '../internal/documents.js';
import { resolveObjects } from '../internal/resolveResource.js';
import { storedForm } from '../internal/storedForm.js';

/** Options of `kubekit default`. */
export interface DefaultOptions {
  /** Files of objects (`-` for stdin). */
  filename: string[];
  /** Files of the CRDs the objects belong to. */
  crd: string[];
}

/**
 * `kubekit default -f <objects> --crd <crd>`: prints each object as the apiserver would store it on
 * create, decoded with its version's schema (KEP-575): unknown fields pruned, non-nullable nulls
 * pruned, defaults applied top-down. Each document starts with a comment naming the pruned fields
 * (the apiserver's `unknown field` warnings). The result is then validated against the schema, as on
 * create (CEL rules excepted); an object the apiserver would reject is reported instead of printed.
 *
 * @returns 0, or 1 when an object is malformed (400) or invalid (422)
 */
export async function defaultObjects(ctx: CliContext, options: DefaultOptions): Promise<number> {
  const definitions = await readDefinitions(ctx, options.crd);
  const { objects, problems } = resolveObjects(ctx, definitions, await readObjects(ctx, options.filename));
  for (const problem of problems) ctx.stderr.write(`${ctx.colors.yellow('warning:')} ${problem}\n`);
  let failed = 0;
  const documents: string[] = [];
  for (const item of objects) {
    const stored = storedForm(item);
    if (stored instanceof KubeError) {
      failed++;
      ctx.stderr.write(`${ctx.colors.red('error:')} ${displayPath(ctx, item.file)}: ${item.crd.spec.names.kind} ${JSON.stringify(nameOf(item.object))}: ${stored.message}\n`);
      continue;
    }
    const { object, pruned } = stored;
    const errors = validateCustomResource(item.crd, item.version.name, object);
    if (errors.length > 0) {
      failed++;
      const header = `${ctx.colors.red('error:')} ${displayPath(ctx, item.file)}: The ${item.crd.spec.names.kind} "${nameOf(item.object)}" is invalid:`;
      ctx.stderr.write(`${header}\n${errors.map((e) => `* ${e.toString()}\n`).join('')}`);
      continue;
    }
    const comments = pruned.map((path) => `# pruned: unknown field "${path}"\n`).join('');
    documents.push(comments + toYAML(object));
  }
  ctx.stdout.write(documents.join('---\n'));
  return failed > 0 ? exitCodes.failure : exitCodes.success;
}
