import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { builtinKinds } from '@kubekit/attrs';
import type { BuiltinKindFields } from '@kubekit/attrs';
import { resolveFieldPath } from '@kubekit/crd';
import type { CustomResourceDefinition, JSONSchemaProps } from '@kubekit/crd';
import { exitCodes } from '../exitCodes.js';
import { CommandError } from '../internal/context.js';
import type { CliContext } from '../internal/context.js';
import { readDefinitions } from '../internal/documents.js';
import { formatTable } from '../internal/table.js';

/** `string`, `string (enum: S, M)`, `string (format: date-time)`, `integer`, … */
function typeText(schema: JSONSchemaProps | undefined): string {
  if (schema === undefined) return 'unknown';
  let text = schema.type ?? (schema['x-kubernetes-int-or-string'] === true ? 'int-or-string' : 'unknown');
  const notes: string[] = [];
  if (schema.format !== undefined) notes.push(`format: ${schema.format}`);
  if (schema.enum !== undefined) notes.push(`enum: ${schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`);
  if (notes.length > 0) text += ` (${notes.join('; ')})`;
  return text;
}

function schemaOf(crd: CustomResourceDefinition, version: string): JSONSchemaProps | undefined {
  return crd.spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema;
}

function crdFields(ctx: CliContext, crd: CustomResourceDefinition): void {
  const namespaced = crd.spec.scope === 'Namespaced';
  ctx.stdout.write(`${ctx.stdoutColors.bold(crd.metadata.name ?? '')} (${crd.spec.names.kind}, ${crd.spec.scope})\n`);
  const rows: string[][] = [['VERSION', 'FIELD', 'TYPE']];
  for (const version of crd.spec.versions) {
    rows.push([version.name, 'metadata.name', 'string']);
    if (namespaced) rows.push([version.name, 'metadata.namespace', 'string']);
    const schema = schemaOf(crd, version.name);
    for (const field of version.selectableFields ?? []) {
      const resolved = schema === undefined ? undefined : resolveFieldPath(field.jsonPath, schema, { allowArrayNotation: false });
      rows.push([version.name, field.jsonPath.replace(/^\./, ''), resolved?.ok === true ? typeText(resolved.schema) : 'unknown (not in the schema)']);
    }
  }
  ctx.stdout.write(formatTable(rows));
}

function builtinFields(ctx: CliContext, kinds: readonly BuiltinKindFields[]): void {
  kinds.forEach((kind, i) => {
    if (i > 0) ctx.stdout.write('\n');
    ctx.stdout.write(`${ctx.stdoutColors.bold(kind.kind)} (${kind.apiVersion}, ${kind.namespaced ? 'Namespaced' : 'Cluster'})\n`);
    const rows: string[][] = [['FIELD', 'NOTES']];
    for (const label of kind.fieldLabels) {
      const alias = kind.labelAliases[label];
      const note = kind.notes[label] ?? (alias !== undefined ? `alias of ${alias}` : '');
      rows.push([label, note]);
    }
    ctx.stdout.write(formatTable(rows));
  });
}

/** The built-in kinds a name means: `Pod`, `pod`, `pods`, `v1/Pod`, `events.k8s.io/v1/Event`. */
function findBuiltinKinds(name: string): BuiltinKindFields[] {
  const slash = name.lastIndexOf('/');
  const apiVersion = slash < 0 ? undefined : name.slice(0, slash);
  const kindName = (slash < 0 ? name : name.slice(slash + 1)).toLowerCase();
  return builtinKinds.filter((k) => {
    if (apiVersion !== undefined && k.apiVersion !== apiVersion) return false;
    const kind = k.kind.toLowerCase();
    return kind === kindName || `${kind}s` === kindName || `${kind}es` === kindName || (kind.endsWith('y') && `${kind.slice(0, -1)}ies` === kindName);
  });
}

/**
 * `kubekit fields <crd file | built-in kind>`: the field labels each version of a CRD accepts in field
 * selectors (`metadata.name`, `metadata.namespace` when namespaced, the `selectableFields` with their
 * types), or the labels of a built-in kind (KEP-4358's table).
 *
 * @returns 0, or throws a usage error for an unknown file or kind
 */
export async function fields(ctx: CliContext, target: string): Promise<number> {
  if (existsSync(resolve(ctx.cwd, target)) || target === '-') {
    const definitions = await readDefinitions(ctx, [target]);
    definitions.forEach(({ crd }, i) => {
      if (i > 0) ctx.stdout.write('\n');
      crdFields(ctx, crd);
    });
    return exitCodes.success;
  }
  const kinds = findBuiltinKinds(target);
  if (kinds.length === 0) {
    const known = [...new Set(builtinKinds.map((k) => k.kind))].sort().join(', ');
    throw new CommandError(`${target} is neither a file nor a built-in kind kubekit knows (${known})`, exitCodes.usage);
  }
  builtinFields(ctx, kinds);
  return exitCodes.success;
}
