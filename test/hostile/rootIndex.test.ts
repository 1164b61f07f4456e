// The index `/`: kube-apiserver 1.34.4 answers any method there with the paths its mux lists (sorted, always
// indented): discovery, OpenAPI, every health check, /version, the issuer documents, each group and
// group-version it serves, and each one an APIService adds (a custom resource's, once registered; a
// service-backed one). kubekit answered 404. The fresh server's list is the reference's, recorded in
// fixtures/rootPaths.json (KUBEKIT_RECORD_ROOT_PATHS=1); kubekit lists the same but `/metrics` and
// `/metrics/slis`, which it does not serve.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { answered, describeOnBothServers, eventually, type Send } from './sender.js';

const fixtureURL = new URL('./fixtures/rootPaths.json', import.meta.url);
const notServed = new Set(['/metrics', '/metrics/slis']);

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  const index = await s('GET', '/');
  expect([index.status, index.headers['content-type'], index.text.startsWith('{\n  "paths": [\n    "/')]).to.deep.equal([200, 'application/json', true]);
  const paths = (JSON.parse(index.text) as { paths: string[] }).paths;
  if (backend === 'reference' && process.env.KUBEKIT_RECORD_ROOT_PATHS === '1') writeFileSync(fixtureURL, JSON.stringify({ paths }, null, 1) + '\n');
  const recorded = (JSON.parse(readFileSync(fixtureURL, 'utf8')) as { paths: string[] }).paths;
  expect(paths).to.deep.equal(backend === 'reference' ? recorded : recorded.filter((p) => !notServed.has(p)));
  // Any method, the same answer (a HEAD without its body); not a path below it.
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) expect((await s(method, '/', '{}')).text, method).to.equal(index.text);
  const head = await s('HEAD', '/');
  expect([head.status, head.text]).to.deep.equal([200, '']);
  expect((await s('GET', '//')).status).to.equal(404);
  // Not public: RBAC's discovery roles do not name it.
  const anonymous = await s('GET', '/', undefined, undefined, undefined, { 'Impersonate-User': 'system:anonymous', 'Impersonate-Group': 'system:unauthenticated' });
  expect([anonymous.status, anonymous.message]).to.deep.equal([403, 'forbidden: User "system:anonymous" cannot get path "/"']);

  // A custom resource's served versions (not the others), and a service-backed APIService's group-version.
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.index.example.com' },
    spec: {
      group: 'index.example.com', scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }, { name: 'v2', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
  };
  answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd)), 201);
  answered(await s('POST', '/apis/apiregistration.k8s.io/v1/apiservices', JSON.stringify({
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.remote.example.com' },
    spec: { group: 'remote.example.com', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'default', name: 'none' } },
  })), 201);
  const added = ['/apis/index.example.com', '/apis/index.example.com/v1', '/apis/remote.example.com', '/apis/remote.example.com/v1beta1'];
  const later = await eventually(() => s('GET', '/'), (a) => added.every((p) => a.text.includes(`"${p}"`)));
  const listed = (JSON.parse(later.text) as { paths: string[] }).paths;
  expect(listed.filter((p) => p.includes('example.com'))).to.deep.equal(added);
  expect(listed).to.deep.equal([...paths, ...added].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
}

describeOnBothServers('the index of paths (/), kubekit and the real kube-apiserver', run);
