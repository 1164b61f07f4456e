/**
 * The Table column definitions of the built-in kinds (names, types, formats, descriptions, priorities),
 * as kube-apiserver v1.34.4's printers declare them, read from `fixtures/builtin-table-columns.json`
 * (regenerated with the schemas by `scripts/gen-builtin-openapi.mjs`). The cells are computed in code
 * (builtinKinds.ts, builtinWorkloads.ts, builtinServiceKinds.ts); the headers `kubectl get` prints and
 * their descriptions are these facts.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/pkg/printers/internalversion/printers.go
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TableColumnDefinition } from './resourceType.js';

let loaded: Map<string, readonly TableColumnDefinition[]> | undefined;

/**
 * The column definitions the apiserver publishes for a built-in resource (`apps`, `v1`, `deployments`),
 * or undefined for one it has none recorded for.
 */
export function publishedTableColumns(group: string, version: string, resource: string): readonly TableColumnDefinition[] | undefined {
  if (loaded === undefined) {
    // src/ and dist/ are both one level below the package root, where fixtures/ is.
    const text = readFileSync(fileURLToPath(new URL('../fixtures/builtin-table-columns.json', import.meta.url)), 'utf8');
    const data = JSON.parse(text) as { columns: Record<string, TableColumnDefinition[]> };
    loaded = new Map(Object.entries(data.columns));
  }
  return loaded.get(`${group}/${version}/${resource}`);
}
