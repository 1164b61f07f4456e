import { parseApiVersion } from '@kubekit/core';
import type { Logger } from '@kubekit/core';
import { describe } from './errors.js';

/** A selectable field of a custom resource version (`spec.versions[].selectableFields[]`). */
export interface SelectableFieldRef {
  jsonPath: string;
}

/** What the informer knows about its resource, beyond its URL. */
export interface ResourceInfo {
  kind?: string;
  namespaced?: boolean;
  /** The version's selectable fields; `undefined` when unknown (not a custom resource, or not readable). */
  selectableFields?: readonly SelectableFieldRef[];
  /** Where `selectableFields` came from. */
  source?: 'options' | 'crd' | 'openapi';
}

/** Reads any JSON document of the cluster by path. */
export type PathGetter = (path: string) => Promise<unknown>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Fills in what `known` lacks from the cluster: kind and scope from discovery (`/apis/<group>/<version>`),
 * and a custom resource version's `selectableFields` from its CRD or, when the CRD is not readable
 * (RBAC), from the published OpenAPI v3 (`x-kubernetes-selectable-fields`). Failures leave the
 * corresponding fields unknown; they never throw.
 */
export async function discoverResourceInfo(get: PathGetter, apiVersion: string, plural: string, known: ResourceInfo, logger: Logger): Promise<ResourceInfo> {
  const info: ResourceInfo = { ...known };
  const { group, version } = parseApiVersion(apiVersion);
  if (info.kind === undefined || info.namespaced === undefined) {
    try {
      const list = await get(group === '' ? `/api/${version}` : `/apis/${group}/${version}`);
      const resources = isObject(list) && Array.isArray(list.resources) ? list.resources : [];
      const found = resources.find((r): r is Record<string, unknown> => isObject(r) && r.name === plural);
      if (found !== undefined) {
        if (info.kind === undefined && typeof found.kind === 'string') info.kind = found.kind;
        if (info.namespaced === undefined && typeof found.namespaced === 'boolean') info.namespaced = found.namespaced;
      }
    } catch (err) {
      logger.debug('discovery failed', { apiVersion, error: describe(err) });
    }
  }
  if (info.selectableFields !== undefined || group === '' || !group.includes('.')) return info;
  try {
    const crd = await get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${plural}.${group}`);
    const spec = isObject(crd) && isObject(crd.spec) ? crd.spec : undefined;
    const versions = spec !== undefined && Array.isArray(spec.versions) ? spec.versions : [];
    const v = versions.find((x): x is Record<string, unknown> => isObject(x) && x.name === version);
    if (v !== undefined) {
      info.selectableFields = Array.isArray(v.selectableFields) ? (v.selectableFields as SelectableFieldRef[]) : [];
      info.source = 'crd';
      if (info.namespaced === undefined && typeof spec?.scope === 'string') info.namespaced = spec.scope === 'Namespaced';
      if (info.kind === undefined && isObject(spec?.names) && typeof spec.names.kind === 'string') info.kind = spec.names.kind;
      return info;
    }
  } catch (err) {
    logger.debug('reading the CustomResourceDefinition failed; trying OpenAPI v3', { error: describe(err) });
  }
  try {
    const doc = await get(`/openapi/v3/apis/${group}/${version}`);
    const schemas = isObject(doc) && isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    for (const schema of Object.values(schemas)) {
      if (!isObject(schema)) continue;
      const gvks = Array.isArray(schema['x-kubernetes-group-version-kind']) ? schema['x-kubernetes-group-version-kind'] : [];
      const matches = gvks.some((g) => isObject(g) && g.group === group && g.version === version && (info.kind === undefined ? !String(g.kind).endsWith('List') : g.kind === info.kind));
      if (!matches) continue;
      const fields = Array.isArray(schema['x-kubernetes-selectable-fields']) ? schema['x-kubernetes-selectable-fields'] : [];
      info.selectableFields = fields.filter(isObject).map((f) => ({ jsonPath: `.${String(f.fieldPath)}` }));
      info.source = 'openapi';
      break;
    }
  } catch (err) {
    logger.debug('reading OpenAPI v3 failed', { error: describe(err) });
  }
  return info;
}
