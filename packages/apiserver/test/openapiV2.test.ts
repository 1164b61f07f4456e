// Regression for issue #16: `/openapi/v2` was not served (clients that predate OpenAPI v3 got 404). It is
// the v3 documents as one Swagger 2.0 document, the shape of the apiserver's
// `/openapi/v2` (https://kubernetes.io/docs/concepts/overview/kubernetes-api/#openapi-v2).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { createCRD, shirtCRD, start, type Client } from './internal/client.js';

interface SwaggerV2 {
  swagger: string;
  paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: { $ref?: string } }[]; consumes?: string[]; produces?: string[]; 'x-kubernetes-group-version-kind'?: unknown }>>;
  definitions: Record<string, Record<string, unknown>>;
}

function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsOf(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

describe('GET /openapi/v2', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, shirtCRD());
  });
  after(() => server.close());

  it('serves every kind as a Swagger 2.0 document whose references all resolve', async () => {
    const res = await client.get('/openapi/v2', { Accept: 'application/json' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json');
    const doc = res.body as SwaggerV2;
    expect(doc.swagger).to.equal('2.0');
    expect(res.text).to.not.contain('#/components/');
    for (const ref of new Set(refsOf(doc))) {
      expect(ref.startsWith('#/definitions/'), ref).to.equal(true);
      expect(doc.definitions, ref).to.have.property(ref.slice('#/definitions/'.length));
    }
    expect(doc.definitions['com.example.stable.v1.Shirt']['x-kubernetes-selectable-fields']).to.deep.equal([{ fieldPath: 'spec.color' }, { fieldPath: 'spec.size' }]);
    expect(doc.definitions['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'].properties).to.have.keys('apiVersion', 'kind', 'metadata', 'spec', 'status');
    expect(doc.definitions).to.have.property('io.k8s.api.core.v1.ConfigMap');
  });

  it('turns request bodies into body parameters and content types into consumes and produces', async () => {
    const doc = (await client.get('/openapi/v2')).body as SwaggerV2;
    const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/shirts/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).to.deep.equal({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' });
    expect(patch.consumes).to.include('application/merge-patch+json');
    expect(patch.produces).to.include('application/json');
    expect(patch.parameters!.find((p) => p.in === 'body')).to.deep.include({ name: 'body' });
  });

  it('answers 406 to a client that accepts only the protobuf form', async () => {
    const res = await client.get('/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(res.status).to.equal(406);
    expect((res.body as { reason: string }).reason).to.equal('NotAcceptable');
  });
});
