// The 404 of a path nothing serves, in kube-apiserver 1.34.4's shapes (probed with test/differential's
// backends): a Status from the core group's, the built-in groups' and /version's handlers, Go's plain-text
// "404 page not found" from the mux for every other path (an unknown group, a custom resource group's
// unknown version or resource, a path outside the API), an empty 404 from the OpenAPI v3 service.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, start } from './internal/client.js';

describe('paths nothing serves', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'deeps.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'deeps', singular: 'deep', kind: 'Deep' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    };
    expect((await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).to.equal(201);
  });

  after(async () => {
    await server.close();
  });

  const shape = async (path: string): Promise<[number, string, string]> => {
    const r = await client.get(path);
    return [r.status, r.headers.get('content-type') ?? '', typeof r.body === 'object' ? `${r.body.kind} ${r.body.reason}: ${r.body.message}` : r.text];
  };
  const status: [string, string] = ['application/json', 'Status NotFound: the server could not find the requested resource'];
  const plain: [string, string] = ['text/plain; charset=utf-8', '404 page not found\n'];

  it('answers a Status where the apiserver\'s own handlers do', async () => {
    for (const path of ['/api/v2', '/api/v1/nothings', '/apis/apps/v1/nothings', '/apis/apps/v9', '/api/v1/namespaces/default/configmaps/x/y/z', '/version/x']) {
      expect(await shape(path), path).to.deep.equal([404, ...status]);
    }
    // Beyond a custom resource's known path, its handler answers for the object.
    expect(await shape('/apis/example.com/v1/namespaces/default/deeps/x/y')).to.deep.equal([404, 'application/json', 'Status NotFound: deeps.example.com "x" not found']);
  });

  it('answers Go\'s plain text where the mux does, custom resource groups included', async () => {
    for (const path of ['/foo', '/apis/nope.example.com', '/apis/nope.example.com/v1/things', '/healthz/nope', '/livez/nope', '/metrics/x', '/openapi/v2/x', '/apis/example.com/v9', '/apis/example.com/v9/deeps', '/apis/example.com/v1/nope', '/apis/example.com/v1/namespaces/default/nope']) {
      expect(await shape(path), path).to.deep.equal([404, ...plain]);
    }
  });

  it('answers an unknown OpenAPI v3 group-version with an empty 404', async () => {
    const r = await client.get('/openapi/v3/apis/nope/v1');
    expect([r.status, r.text, r.headers.get('content-type')]).to.deep.equal([404, '', null]);
  });
});
