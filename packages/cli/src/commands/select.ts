import { customResourceFieldsOptionsFor, selectorMatcher } from '@kubekit/attrs';
import type { SelectionPredicate } from '@kubekit/attrs';
import { KubeError } from '@kubekit/core';
import { toYAML } from '@kubekit/decorators';
import { exitCodes } from '../exitCodes.js';
import { CommandError } from '../internal/context.js';
import type { CliContext } from '../internal/context.js';
import { displayPath, nameOf, namespaceOf, readDefinitions, readObjects } from '../internal/documents.js';
import { cellText, visibleColumns } from '../internal/printerColumns.js';
import { resolveObjects } from '../internal/resolveResource.js';
import { storedForm } from '../internal/storedForm.js';
import type { ResolvedObject } from '../internal/resolveResource.js';
import { formatTable } from '../internal/table.js';

/** Options of `kubekit select`. */
export interface SelectOptions {
  /** Files of objects (`-` for stdin). */
  filename: string[];
  /** Files of the CRDs the objects belong to. */
  crd: string[];
  /** A field selector, as `kubectl --field-selector`. @defaultValue everything */
  fieldSelector?: string;
  /** A label selector, as `kubectl -l`. @defaultValue everything */
  selector?: string;
  /** Only objects of this namespace (objects without one are in `default`). @defaultValue every namespace */
  namespace?: string;
  /** Show a NAMESPACE column. @defaultValue false */
  allNamespaces?: boolean;
  /** `wide` (every column), `name`, `yaml` or `json`. @defaultValue the table */
  output?: string;
}

const outputs = ['wide', 'name', 'yaml', 'json'];

/**
 * `kubekit select -f <objects> --crd <crd>`: filters manifests offline with the apiserver's semantics
 * (objects pruned and defaulted with their version's schema first, as stored; field labels converted
 * and checked per version, absent fields read as `""`, label selectors as `kubectl -l`), and prints
 * them as `kubectl get` would, with the CRD's printer columns.
 *
 * @returns 0, or 1 when the apiserver would refuse the selector (`field label not supported: …`)
 */
export async function select(ctx: CliContext, options: SelectOptions): Promise<number> {
  if (options.output !== undefined && !outputs.includes(options.output)) {
    throw new CommandError(`unknown output format ${JSON.stringify(options.output)}: use one of ${outputs.join(', ')}`, exitCodes.usage);
  }
  const definitions = await readDefinitions(ctx, options.crd);
  const resolved = resolveObjects(ctx, definitions, await readObjects(ctx, options.filename));
  for (const problem of resolved.problems) ctx.stderr.write(`${ctx.colors.yellow('warning:')} ${problem}\n`);
  const objects = resolved.objects.map((item) => asStored(ctx, item));

  const predicates = new Map<string, SelectionPredicate>();
  const selected: ResolvedObject[] = [];
  for (const item of objects) {
    if (options.namespace !== undefined && (namespaceOf(item.object) || 'default') !== options.namespace) continue;
    const key = `${item.crd.metadata.name ?? ''}\0${item.version.name}`;
    let predicate = predicates.get(key);
    if (predicate === undefined) {
      try {
        predicate = selectorMatcher({
          fields: customResourceFieldsOptionsFor(item.crd, item.version.name)!,
          fieldSelector: options.fieldSelector ?? '',
          labelSelector: options.selector ?? '',
        });
      } catch (err) {
        if (err instanceof KubeError) {
          ctx.stderr.write(`${ctx.colors.red(`Error (${err.reason}):`)} ${err.message}\n`);
          return exitCodes.failure;
        }
        throw err;
      }
      predicates.set(key, predicate);
    }
    if (predicate.matches(asCreated(item))) selected.push(item);
  }

  if (selected.length === 0) {
    ctx.stderr.write(options.namespace === undefined ? 'No resources found\n' : `No resources found in ${options.namespace} namespace.\n`);
    return exitCodes.success;
  }
  switch (options.output) {
    case 'name':
      for (const item of selected) ctx.stdout.write(`${item.crd.spec.names.singular ?? item.crd.spec.names.kind.toLowerCase()}.${item.crd.spec.group}/${nameOf(item.object)}\n`);
      return exitCodes.success;
    case 'yaml':
      ctx.stdout.write(toYAML(selected.map((s) => s.object)));
      return exitCodes.success;
    case 'json':
      ctx.stdout.write(`${JSON.stringify(selected.length === 1 ? selected[0].object : { apiVersion: 'v1', kind: 'List', items: selected.map((s) => s.object) }, null, 4)}\n`);
      return exitCodes.success;
    default:
      printTables(ctx, selected, options);
      return exitCodes.success;
  }
}

/**
 * The object as the apiserver stores it (KEP-575): unknown fields pruned and defaults applied with its
 * version's schema, so a selector or printer column on a defaulted field sees the default. An object
 * the apiserver would refuse to decode stays as written, with a warning.
 */
function asStored(ctx: CliContext, item: ResolvedObject): ResolvedObject {
  const stored = storedForm(item);
  if (stored instanceof KubeError) {
    ctx.stderr.write(`${ctx.colors.yellow('warning:')} ${displayPath(ctx, item.file)}: ${item.crd.spec.names.kind} ${JSON.stringify(nameOf(item.object))} is selected as written, not defaulted: ${stored.message}\n`);
    return item;
  }
  return { ...item, object: stored.object };
}

/**
 * The object as the apiserver holds it after `kubectl apply` without a namespace: a namespaced
 * resource lands in `default`, so `metadata.namespace=default` selects it.
 */
function asCreated(item: ResolvedObject): Record<string, unknown> {
  if (item.crd.spec.scope !== 'Namespaced' || namespaceOf(item.object) !== '') return item.object;
  const metadata = typeof item.object.metadata === 'object' && item.object.metadata !== null ? item.object.metadata : {};
  return { ...item.object, metadata: { ...metadata, namespace: 'default' } };
}

function printTables(ctx: CliContext, selected: readonly ResolvedObject[], options: SelectOptions): void {
  const tables = new Map<string, ResolvedObject[]>();
  for (const item of selected) {
    const key = `${item.crd.metadata.name ?? ''}\0${item.version.name}`;
    tables.set(key, [...(tables.get(key) ?? []), item]);
  }
  const now = ctx.now();
  const prefixNames = tables.size > 1;
  let first = true;
  for (const items of tables.values()) {
    const { crd, version } = items[0];
    const columns = visibleColumns(version.additionalPrinterColumns, options.output === 'wide');
    const withNamespace = options.allNamespaces === true && crd.spec.scope === 'Namespaced';
    const header = [...(withNamespace ? ['NAMESPACE'] : []), 'NAME', ...columns.map((c) => c.name.toUpperCase())];
    const rows = items.map(({ object }) => [
      ...(withNamespace ? [namespaceOf(object) || 'default'] : []),
      prefixNames ? `${crd.spec.names.plural}.${crd.spec.group}/${nameOf(object)}` : nameOf(object),
      ...columns.map((c) => cellText(object, c, now)),
    ]);
    if (!first) ctx.stdout.write('\n');
    first = false;
    ctx.stdout.write(formatTable([header, ...rows]));
  }
}
