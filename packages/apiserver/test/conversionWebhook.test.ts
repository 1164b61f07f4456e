// The embedded server's conversion webhook client, checked as the apiserver checks a webhook's answer
// (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go: getConvertedObjectsFromResponse,
// validateConvertedObject, restoreObjectMeta), and reached through a service reference.
import { expect } from 'chai';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '@kubekit/core';
import { generateCertificates } from '@kubekit/webhook';
import { createCRD, shirtCRD, start, type Client } from './internal/client.js';
import type { ApiServer } from '@kubekit/apiserver';

interface ConversionRequest { uid: string; desiredAPIVersion: string; objects: KubeObject[] }
type Answer = (request: ConversionRequest) => Record<string, unknown>;

const certs = generateCertificates({ hosts: ['shirts-webhook.shop.svc'] });

function rename(o: KubeObject, to: string): KubeObject {
  const spec = { ...(o.spec as Record<string, unknown>) };
  if (to.endsWith('/v1beta1')) { spec.hue = spec.color; delete spec.color; } else { spec.color = spec.hue; delete spec.hue; }
  return { ...o, apiVersion: to, spec };
}

describe('conversion webhooks in the embedded server', function () {
  this.timeout(30_000);
  let webhook: Server;
  let answer: Answer;
  let server: ApiServer;
  let client: Client;
  const resolved: unknown[] = [];

  before(async () => {
    webhook = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: ConversionRequest };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', ...answer(review.request) }));
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', () => r()));
    const port = (webhook.address() as AddressInfo).port;
    ({ server, client } = await start({ resolveWebhookService: (svc) => { resolved.push(svc); return `https://127.0.0.1:${port}`; } }));
    const crd = shirtCRD() as KubeObject & { spec: { versions: Record<string, unknown>[]; conversion?: unknown } };
    const v1 = crd.spec.versions[0] as { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } };
    const beta = structuredClone(v1) as typeof v1 & Record<string, unknown>;
    const props = beta.schema.openAPIV3Schema.properties.spec.properties;
    props.hue = props.color;
    delete props.color;
    delete beta.selectableFields;
    delete beta.additionalPrinterColumns;
    crd.spec.versions = [v1, { ...beta, name: 'v1beta1', storage: false }];
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'shop', name: 'shirts-webhook', path: '/convert', port: 8443 }, caBundle: certs.caBundle } } };
    await createCRD(server, client, crd);
    answer = (r) => ({ response: { uid: r.uid, convertedObjects: r.objects.map((o) => rename(o, r.desiredAPIVersion)), result: { status: 'Success' } } });
    const created = await client.post('/apis/stable.example.com/v1/namespaces/default/shirts', { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 's', labels: { a: 'b' } }, spec: { color: 'blue', size: 'M' } });
    expect(created.status, created.text).to.equal(201);
  });

  after(async () => {
    await server.close();
    webhook.closeAllConnections();
    await new Promise((r) => webhook.close(r));
  });

  let writes = 0;
  /** Reads the shirt in v1beta1 after a write in v1 (the server caches a stored object's conversions). */
  const getBeta = async (): Promise<{ status: number; body: { spec?: unknown; metadata: KubeObject['metadata']; message?: string } }> => {
    const touched = await client.patch('/apis/stable.example.com/v1/namespaces/default/shirts/s', { spec: { size: `S${++writes}` } });
    expect(touched.status, touched.text).to.equal(200);
    return client.get('/apis/stable.example.com/v1beta1/namespaces/default/shirts/s');
  };

  it('dials a service reference at the resolved address, verified as <name>.<namespace>.svc', async () => {
    const r = await getBeta();
    expect(r.status).to.equal(200);
    expect(r.body.spec).to.deep.equal({ hue: 'blue', size: 'S1' });
    expect(resolved[0]).to.deep.equal({ namespace: 'shop', name: 'shirts-webhook', port: 8443 });
  });

  it('keeps labels and annotations a conversion changes and restores the rest of the metadata', async () => {
    answer = (r) => ({ response: { uid: r.uid, convertedObjects: r.objects.map((o) => ({ ...rename(o, r.desiredAPIVersion), metadata: { ...o.metadata, labels: { converted: 'yes' }, finalizers: ['sneaky'], generation: 99 } })), result: { status: 'Success' } } });
    const r = await getBeta();
    expect(r.status).to.equal(200);
    expect(r.body.metadata.labels).to.deep.equal({ converted: 'yes' });
    expect(r.body.metadata.finalizers).to.equal(undefined);
    expect(r.body.metadata.generation).to.be.a('number').and.not.equal(99);
  });

  const failures: [string, Answer, RegExp][] = [
    ['another uid', (r) => ({ response: { uid: 'other', convertedObjects: r.objects, result: { status: 'Success' } } }), /failed: expected response\.uid="[-0-9a-f]+", got "other"$/],
    ['a Failure with a message', (r) => ({ response: { uid: r.uid, convertedObjects: [], result: { status: 'Failure', message: 'hue unknown' } } }), /failed: hue unknown$/],
    ['another kind', (r) => ({ response: { uid: r.uid, convertedObjects: r.objects.map((o) => ({ ...rename(o, r.desiredAPIVersion), kind: 'Hat' })), result: { status: 'Success' } } }), /returned invalid object at index 0: invalid kind \(expected Shirt, received Hat\)$/],
    ['another version', (r) => ({ response: { uid: r.uid, convertedObjects: r.objects, result: { status: 'Success' } } }), /invalid groupVersion \(expected stable\.example\.com\/v1beta1, received stable\.example\.com\/v1\)$/],
    ['another name', (r) => ({ response: { uid: r.uid, convertedObjects: r.objects.map((o) => ({ ...rename(o, r.desiredAPIVersion), metadata: { ...o.metadata, name: 'x' } })), result: { status: 'Success' } } }), /returned invalid object: must have the same name: s != x$/],
    ['labels that are not strings', (r) => ({ response: { uid: r.uid, convertedObjects: r.objects.map((o) => ({ ...rename(o, r.desiredAPIVersion), metadata: { ...o.metadata, labels: { n: 1 } } })), result: { status: 'Success' } } }), /returned invalid metadata: metadata\.labels\[n\] must be a string, but is number in converted object$/],
    ['two objects for one', (r) => ({ response: { uid: r.uid, convertedObjects: [...r.objects, ...r.objects].map((o) => rename(o, r.desiredAPIVersion)), result: { status: 'Success' } } }), /returned 2 objects, expected 1$/],
  ];
  for (const [what, bad, message] of failures) {
    it(`refuses an answer with ${what}`, async () => {
      answer = bad;
      const r = await getBeta();
      expect(r.status).to.equal(500);
      expect(r.body.message).to.match(/^conversion webhook for stable\.example\.com\/v1, Kind=Shirt /);
      expect(r.body.message).to.match(message);
    });
  }
});
