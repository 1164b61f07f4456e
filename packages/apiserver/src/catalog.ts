/**
 * The catalog of everything served: the built-in kinds, the CustomResourceDefinition resource and the
 * custom resources of the {@link CrdRegistry}. Request routing and discovery read it.
 */
import type { CustomResourceDefinitionType } from './crdResource.js';
import { compareKubeVersions, type CrdRegistry } from './crdRegistry.js';
import type { ResourceType } from './resourceType.js';

/** One API group in discovery: its versions (preferred first) and each version's types. */
export interface ServedGroup {
  name: string;
  versions: { version: string; types: ResourceType[] }[];
}

/** See the file comment. */
export class ResourceCatalog {
  private readonly builtinByGVR = new Map<string, ResourceType>();

  constructor(readonly builtins: readonly ResourceType[], readonly crdType: CustomResourceDefinitionType, readonly crds: CrdRegistry) {
    for (const t of [...builtins, crdType]) this.builtinByGVR.set(`${t.names.group}/${t.names.version}/${t.names.resource}`, t);
  }

  /** The type serving a group, version and resource (plural), if any. */
  resolve(group: string, version: string, resource: string): ResourceType | undefined {
    return this.builtinByGVR.get(`${group}/${version}/${resource}`) ?? this.crds.resolve(group, version, resource);
  }

  /** Whether `group` is one of the built-in groups (served by the apiserver itself, not by a CRD). */
  isBuiltinGroup(group: string): boolean {
    return this.crdType.names.group === group || this.builtins.some((t) => t.names.group === group);
  }

  /** Every served type. */
  all(): ResourceType[] {
    const out: ResourceType[] = [...this.builtins, this.crdType];
    for (const r of this.crds.served()) out.push(...r.types);
    return out;
  }

  /** One type per storage bucket of namespaced resources (for namespace cleanup). */
  namespacedBuckets(): ResourceType[] {
    const seen = new Map<string, ResourceType>();
    for (const t of this.all()) if (t.names.namespaced && !seen.has(t.bucket)) seen.set(t.bucket, t);
    return [...seen.values()];
  }

  /**
   * The served groups of `/apis` (or the core group for `/api` with `legacy`): built-in groups first, then
   * custom resource groups, by name; versions in kube-aware order. Discovery lists them in kube-aggregator's
   * order, from the APIServices (discovery.ts).
   */
  groups(legacy: boolean): ServedGroup[] {
    const byGroup = new Map<string, Map<string, ResourceType[]>>();
    for (const t of this.all()) {
      if ((t.names.group === '') !== legacy) continue;
      let versions = byGroup.get(t.names.group);
      if (versions === undefined) {
        versions = new Map();
        byGroup.set(t.names.group, versions);
      }
      const list = versions.get(t.names.version) ?? [];
      list.push(t);
      versions.set(t.names.version, list);
    }
    const builtinGroups = new Set(this.builtins.map((t) => t.names.group).concat(this.crdType.names.group));
    const names = [...byGroup.keys()].sort((a, b) => {
      const ba = builtinGroups.has(a) ? 0 : 1;
      const bb = builtinGroups.has(b) ? 0 : 1;
      return ba - bb || (a < b ? -1 : a > b ? 1 : 0);
    });
    return names.map((name) => {
      const versions = byGroup.get(name)!;
      const ordered = [...versions.keys()].sort(compareKubeVersions);
      return { name, versions: ordered.map((version) => ({ version, types: versions.get(version)!.sort((a, b) => (a.names.resource < b.names.resource ? -1 : 1)) })) };
    });
  }
}
