/**
 * The RBAC objects a kube-apiserver creates when it starts (the `rbac/bootstrap-roles` post-start hook):
 * the default policy's ClusterRoles (`cluster-admin`, `admin`, `edit`, `view`, the `system:` roles of the
 * control plane's components) and their ClusterRoleBindings (`cluster-admin` to `system:masters`,
 * `system:basic-user`, `system:discovery` and `system:public-info-viewer` to every authenticated user),
 * and the Roles and RoleBindings of kube-system and kube-public — as kube-apiserver 1.34.4 creates them,
 * read from `fixtures/bootstrap-rbac.json` (`scripts/gen-bootstrap-rbac.mjs`). An operator's bindings to
 * `view` or `edit` then refer to the roles a cluster has, and the access reviews answer as a cluster's
 * apiserver does. The aggregated roles (`admin`, `edit`, `view`) hold no rules: a cluster's
 * controller-manager fills them in, and a bare apiserver has none (neither has this server).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '@kubekit/core';
import { timestamp } from './objectMeta.js';
import { bucketOf, storeKey, type ObjectStore } from './storage/objectStore.js';

const resources: Readonly<Record<string, string>> = { ClusterRole: 'clusterroles', ClusterRoleBinding: 'clusterrolebindings', Role: 'roles', RoleBinding: 'rolebindings' };

let policy: readonly KubeObject[] | undefined;

/** The default policy's objects, without the fields the server sets. */
function bootstrapPolicy(): readonly KubeObject[] {
  policy ??= (JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/bootstrap-rbac.json', import.meta.url)), 'utf8')) as { objects: KubeObject[] }).objects;
  return policy;
}

/** Creates each object of the default policy the store does not hold yet (a persisted store keeps its own). */
export async function createBootstrapPolicy(store: ObjectStore, now: number): Promise<void> {
  const created = timestamp(now);
  for (const template of bootstrapPolicy()) {
    const gr = { group: 'rbac.authorization.k8s.io', resource: resources[template.kind ?? ''] };
    const name = template.metadata.name ?? '';
    const key = storeKey(template.metadata.namespace ?? '', name);
    if (store.get(bucketOf(gr), key) !== undefined) continue;
    const object = structuredClone(template);
    object.metadata = { ...object.metadata, uid: randomUUID(), creationTimestamp: created };
    await store.create(gr, key, name, object).durable;
  }
}
