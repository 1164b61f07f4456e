import { validateCustomResourceDefinition } from '@kubekit/crd';
import { exitCodes } from '../exitCodes.js';
import type { CliContext } from '../internal/context.js';
import { describeObject, displayPath, isCustomResourceDefinition, nameOf, readObjects } from '../internal/documents.js';

/**
 * `kubekit crd validate <files…>`: checks every CustomResourceDefinition in the files with the
 * apiserver's rules (as on create) and prints its messages, kubectl style. Any other document is an error.
 *
 * @returns 0 when every CRD is valid, 1 otherwise
 */
export async function crdValidate(ctx: CliContext, files: readonly string[]): Promise<number> {
  const objects = await readObjects(ctx, files);
  let invalid = 0;
  if (objects.length === 0) {
    ctx.stderr.write(`${ctx.colors.red('error:')} no objects in ${files.map((f) => displayPath(ctx, f)).join(', ')}\n`);
    return exitCodes.failure;
  }
  for (const { file, document, object } of objects) {
    const where = displayPath(ctx, file);
    if (!isCustomResourceDefinition(object)) {
      invalid++;
      ctx.stderr.write(`${ctx.colors.red('error:')} ${where}: document ${document} is ${describeObject(object)}, not an apiextensions.k8s.io/v1 CustomResourceDefinition\n`);
      continue;
    }
    const name = nameOf(object);
    const errors = validateCustomResourceDefinition(object);
    if (errors.length === 0) {
      ctx.stdout.write(`${where}: CustomResourceDefinition "${name}" is ${ctx.stdoutColors.green('valid')}\n`);
      continue;
    }
    invalid++;
    ctx.stdout.write(`${where}: The CustomResourceDefinition "${name}" is ${ctx.stdoutColors.red('invalid')}:\n`);
    for (const error of errors) ctx.stdout.write(`* ${error.toString()}\n`);
  }
  return invalid > 0 ? exitCodes.failure : exitCodes.success;
}
