// A custom resource's URL out of its CRD's scope, on both servers: the CRD handler passes a request with a
// namespace for a cluster-scoped resource, or without one for a namespaced resource (but to list or watch
// across namespaces), to the mux (apiextensions-apiserver customresource_handler.go, crdHandler.ServeHTTP),
// whose 404 is Go's plain "404 page not found", not a Status; in scope, a missing object and an unknown
// subresource are the handler's Status. Every expected answer is kube-apiserver 1.34.4's.
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

const G = '/apis/scope.example.com/v1';

function crd(plural: string, kind: string, scope: string): string {
  return JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.scope.example.com` },
    spec: {
      group: 'scope.example.com', scope, names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, subresources: { status: {} } }],
    },
  });
}

/** The answer as [status, its text or its Status message] (a list's body left out). */
const shape = (a: Answer): [number, string] => [a.status, a.status === 200 ? '' : a.text.startsWith('{') ? `Status: ${a.message}` : a.text];

async function run(s: Send): Promise<void> {
  for (const [plural, kind, scope] of [['gadgets', 'Gadget', 'Cluster'], ['things', 'Thing', 'Namespaced']]) {
    expect((await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(plural, kind, scope))).status).to.equal(201);
    for (let i = 0; i < 100 && (await s('GET', `${G}/${plural}`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
  }
  const page = '404 page not found\n';
  const gadget = JSON.stringify({ apiVersion: 'scope.example.com/v1', kind: 'Gadget', metadata: { name: 'x' } });
  const cases: [string, string, [number, string]][] = [
    // A cluster-scoped resource under a namespace: every verb, subresources and deeper paths too.
    ['GET', `${G}/namespaces/default/gadgets`, [404, page]],
    ['GET', `${G}/namespaces/default/gadgets/x`, [404, page]],
    ['POST', `${G}/namespaces/default/gadgets`, [404, page]],
    ['DELETE', `${G}/namespaces/default/gadgets`, [404, page]],
    ['GET', `${G}/namespaces/default/gadgets/x/status`, [404, page]],
    ['GET', `${G}/namespaces/default/gadgets/x/y/z`, [404, page]],
    // A namespaced resource without a namespace: an object, a create, a collection delete.
    ['GET', `${G}/things/x`, [404, page]],
    ['POST', `${G}/things`, [404, page]],
    ['DELETE', `${G}/things`, [404, page]],
    ['GET', `${G}/things/x/status`, [404, page]],
    // In scope: the handler's own answers.
    ['GET', `${G}/things`, [200, '']],
    ['GET', `${G}/gadgets/x/status`, [404, 'Status: gadgets.scope.example.com "x" not found']],
    ['GET', `${G}/gadgets/x/bogus`, [404, 'Status: gadgets.scope.example.com "x" not found']],
    ['GET', `${G}/namespaces/default/things/x/bogus`, [404, 'Status: things.scope.example.com "x" not found']],
    ['GET', `${G}/namespaces/default/things/x`, [404, 'Status: things.scope.example.com "x" not found']],
  ];
  for (const [method, path, expected] of cases) {
    expect(shape(await s(method, path, method === 'POST' ? gadget : undefined)), `${method} ${path}`).to.deep.equal(expected);
  }
  // Nothing was created out of scope.
  expect((JSON.parse((await s('GET', `${G}/gadgets`)).text) as { items: unknown[] }).items).to.deep.equal([]);
}

describeOnBothServers('custom resource URLs out of their CRD\'s scope', async (s) => run(s));
