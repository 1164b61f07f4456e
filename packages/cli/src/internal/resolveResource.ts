/** Matching objects to the CRD versions they belong to, as the apiserver routes a request. */
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '@kubekit/crd';
import { describeObject, displayPath, nameOf } from './documents.js';
import type { SourcedDefinition, SourcedObject } from './documents.js';
import type { CliContext } from './context.js';

/** An object with the CRD and version that serve it. */
export interface ResolvedObject extends SourcedObject {
  readonly crd: CustomResourceDefinition;
  readonly version: CustomResourceDefinitionVersion;
}

/** The outcome of {@link resolveObjects}: matched objects, and one message per object left out. */
export interface Resolution {
  readonly objects: ResolvedObject[];
  readonly problems: string[];
}

/**
 * Finds, for each object, the CRD whose group and kind match its `apiVersion` and `kind`, and the
 * served version named by its `apiVersion`. Objects of other kinds, and of versions the CRD does not
 * serve, are reported in `problems` (the apiserver would answer 404 for them).
 */
export function resolveObjects(ctx: CliContext, definitions: readonly SourcedDefinition[], objects: readonly SourcedObject[]): Resolution {
  const out: ResolvedObject[] = [];
  const problems: string[] = [];
  for (const sourced of objects) {
    const { object } = sourced;
    const where = `${displayPath(ctx, sourced.file)}: ${describeObject(object)} ${JSON.stringify(nameOf(object))}`;
    const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
    const slash = apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const versionName = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const definition = definitions.find((d) => d.crd.spec.group === group && d.crd.spec.names.kind === object.kind);
    if (definition === undefined) {
      problems.push(`${where}: no CustomResourceDefinition given for kind ${String(object.kind)} in group ${JSON.stringify(group)}`);
      continue;
    }
    const version = definition.crd.spec.versions.find((v) => v.name === versionName);
    if (version === undefined || !version.served) {
      problems.push(`${where}: ${definition.crd.metadata.name ?? ''} does not serve version ${JSON.stringify(versionName)}`);
      continue;
    }
    out.push({ ...sourced, crd: definition.crd, version });
  }
  return { objects: out, problems };
}
