// Posts CRDs with the given spec schemas to both servers and prints the answers side by side.
import { startReference, startKubekit } from './backends.js';
import { send } from './client.js';
const specs = JSON.parse(process.argv[2]) as unknown[];
const servers = [await startReference(), await startKubekit()];
let n = 0;
for (const spec of specs) {
  n++;
  for (const b of servers) {
    const group = `c${n}.check.example.com`;
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `things.${group}` }, spec: { group, scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }] } };
    const r = await send(b, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
    console.log(n, b.name, r.status, r.status >= 300 ? (r.body as { message: string }).message : '');
  }
}
for (const b of servers) await b.close();
