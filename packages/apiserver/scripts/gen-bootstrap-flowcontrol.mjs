#!/usr/bin/env node
// Regenerates fixtures/bootstrap-flowcontrol.json: the API Priority and Fairness objects kube-apiserver
// creates when it starts (its `priority-and-fairness-config-producer` post-start hook: the mandatory and
// suggested PriorityLevelConfigurations, then FlowSchemas, of k8s.io/apiserver's flowcontrol/bootstrap), as
// a reference kube-apiserver lists them (facts of the API). Kept: kind, name, annotations, the spec and the
// fields the producer's create manages (`fieldsV1`); dropped: what the server sets (uid, resourceVersion,
// creationTimestamp, times, the status the config-consumer writes).
//
// Usage (from the repository root):
//   node --import tsx --conditions=kubekit-source packages/apiserver/scripts/gen-bootstrap-flowcontrol.mjs
// starts a reference server (packages/envtest; KUBEKIT_ENVTEST_DIR reuses a built binary).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceApiServer } from '@kubekit/envtest';
import { referenceGetter } from './reference-get.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'bootstrap-flowcontrol.json');
const server = await startReferenceApiServer();
const get = referenceGetter(server.url, server.token, server.ca);
const producer = 'api-priority-and-fairness-config-producer-v1';

try {
  const objects = [];
  for (const [resource, kind] of [['prioritylevelconfigurations', 'PriorityLevelConfiguration'], ['flowschemas', 'FlowSchema']]) {
    const list = await get(`/apis/flowcontrol.apiserver.k8s.io/v1/${resource}`);
    for (const item of list.items) {
      const { name, annotations } = item.metadata;
      const fieldsV1 = item.metadata.managedFields.find((m) => m.manager === producer).fieldsV1;
      objects.push({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind, metadata: { name, annotations }, spec: item.spec, fieldsV1 });
    }
  }
  writeFileSync(out, `${JSON.stringify({ source: `kube-apiserver ${server.version} priority-and-fairness-config-producer`, objects }, null, 1)}\n`);
  console.log(`${out}: ${objects.length} objects`);
} finally {
  await server.close();
}
