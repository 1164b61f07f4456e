// The deprecated watch paths in the OpenAPI v3 documents: kube-apiserver 1.34.4's installer publishes
// `watch/…` routes for every built-in kind that watches (the differential scenario builtin/openapi-v3
// compares the deployment paths with the reference); custom resources publish none.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { createCRD, shirtCRD, start, type Client } from './internal/client.js';

interface Operation { operationId: string; 'x-kubernetes-action': string; responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }
interface Document { paths: Record<string, { get?: Operation; parameters?: { name: string; in: string }[] }>; components: { schemas: Record<string, unknown> } }

describe('OpenAPI v3: the deprecated watch paths', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, shirtCRD());
  });
  after(() => server.close());

  const document = async (gv: string): Promise<Document> => {
    const res = await client.get(`/openapi/v3/${gv}`);
    expect(res.status).to.equal(200);
    return res.body as Document;
  };

  it('publishes a namespaced kind\'s three watch routes with their actions, parameters and WatchEvent', async () => {
    const doc = await document('apis/apps/v1');
    const watchPaths = Object.keys(doc.paths).filter((p) => p.includes('/watch/') && p.includes('/deployments')).sort();
    expect(watchPaths).to.deep.equal([
      '/apis/apps/v1/watch/deployments',
      '/apis/apps/v1/watch/namespaces/{namespace}/deployments',
      '/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}',
    ]);
    const summary = watchPaths.map((p) => [doc.paths[p].get?.operationId, doc.paths[p].get?.['x-kubernetes-action']]);
    expect(summary).to.deep.equal([
      ['watchAppsV1DeploymentListForAllNamespaces', 'watchlist'],
      ['watchAppsV1NamespacedDeploymentList', 'watchlist'],
      ['watchAppsV1NamespacedDeployment', 'watch'],
    ]);
    const one = doc.paths['/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}'];
    expect(one.parameters?.map((p) => `${p.name}:${p.in}`)).to.deep.equal([
      'allowWatchBookmarks:query', 'continue:query', 'fieldSelector:query', 'labelSelector:query', 'limit:query', 'name:path', 'namespace:path',
      'pretty:query', 'resourceVersion:query', 'resourceVersionMatch:query', 'sendInitialEvents:query', 'timeoutSeconds:query', 'watch:query',
    ]);
    const content = one.get?.responses['200'].content ?? {};
    expect(Object.keys(content)).to.include('application/json;stream=watch');
    expect(content['application/json'].schema.$ref).to.equal('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent');
    expect(doc.components.schemas).to.include.keys('io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent', 'io.k8s.apimachinery.pkg.runtime.RawExtension');
  });

  it('publishes a cluster-scoped kind\'s two, and none for a kind that does not watch or a custom resource', async () => {
    const core = Object.keys((await document('api/v1')).paths);
    expect(core.filter((p) => p.startsWith('/api/v1/watch/namespaces') && !p.startsWith('/api/v1/watch/namespaces/{namespace}'))).to.deep.equal(['/api/v1/watch/namespaces', '/api/v1/watch/namespaces/{name}']);
    expect(core.filter((p) => p.includes('componentstatuses') && p.includes('/watch/'))).to.deep.equal([]);
    const shirts = Object.keys((await document('apis/stable.example.com/v1')).paths);
    expect(shirts.filter((p) => p.includes('/watch/'))).to.deep.equal([]);
  });
});
