#!/usr/bin/env node
// Regenerates fixtures/bootstrap-rbac.json: the RBAC objects kube-apiserver creates when it starts (its
// `rbac/bootstrap-roles` post-start hook: the ClusterRoles and ClusterRoleBindings of the default policy,
// and the Roles and RoleBindings of kube-system and kube-public, all labelled
// `kubernetes.io/bootstrapping: rbac-defaults`), as a reference kube-apiserver lists them (facts of the
// API). Kept: name, namespace, labels, annotations and the body; dropped: what the server sets (uid,
// resourceVersion, creationTimestamp, managedFields).
//
// Usage (from the repository root):
//   node --import tsx --conditions=kubekit-source packages/apiserver/scripts/gen-bootstrap-rbac.mjs
// starts a reference server (packages/envtest; KUBEKIT_ENVTEST_DIR reuses a built binary).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceApiServer } from '@kubekit/envtest';
import { referenceGetter } from './reference-get.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'bootstrap-rbac.json');
const server = await startReferenceApiServer();

const get = referenceGetter(server.url, server.token, server.ca);

try {
  const objects = [];
  for (const [resource, kind] of [['clusterroles', 'ClusterRole'], ['clusterrolebindings', 'ClusterRoleBinding'], ['roles', 'Role'], ['rolebindings', 'RoleBinding']]) {
    const list = await get(`/apis/rbac.authorization.k8s.io/v1/${resource}?labelSelector=kubernetes.io%2Fbootstrapping%3Drbac-defaults`);
    for (const item of list.items) {
      const { uid: _uid, resourceVersion: _rv, creationTimestamp: _created, managedFields: _managed, ...metadata } = item.metadata;
      objects.push({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, ...item, metadata });
    }
  }
  writeFileSync(out, `${JSON.stringify({ source: `kube-apiserver ${server.version} rbac/bootstrap-roles`, objects }, null, 1)}\n`);
  console.log(`${out}: ${objects.length} objects`);
} finally {
  await server.close();
}
