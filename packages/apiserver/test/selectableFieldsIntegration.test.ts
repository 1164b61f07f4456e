// The KEP-4358 integration scenario (staging/src/k8s.io/apiextensions-apiserver/test/integration/
// fieldselector_test.go): a CRD with two versions whose selectable field moves between them (v1
// `spec.color`, v1beta1 `spec.hue`, converted by a webhook); list, watch and deletecollection with
// single and combined field selectors, through each version. Cases and objects: fixtures/
// selectable-fields-integration.json (copied from the shared vectors).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ApiServer } from '@kubekit/apiserver';
import type { KubeObject } from '@kubekit/core';
import { createCRD, fixture, fixturesDir, start, type Client, type WatchStream } from './internal/client.js';

interface Case {
  id: string;
  group: string;
  name: string;
  apiVersion?: string;
  fieldSelector?: string;
  expected: {
    list?: { names?: string[]; error?: string; httpStatus?: number };
    deleteCollection?: { deleted?: string[]; error?: string; httpStatus?: number };
    watch?: { ADDED?: string[]; DELETED?: string[]; error?: string };
    [k: string]: unknown;
  };
}

const vectors = fixture<{ crdFixture: KubeObject; instances: KubeObject[]; cases: Case[] }>('selectable-fields-integration.json');
const integration = vectors.cases.filter((c) => c.group === 'integration' && c.id !== 'integration/015');

/** A conversion webhook that renames spec.color (v1) <-> spec.hue (v1beta1), as the upstream test's. */
function startWebhook(): Promise<{ server: Server; url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer({ key: readFileSync(join(fixturesDir, 'webhook-tls', 'key.pem')), cert: readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };
      const desired = review.request.desiredAPIVersion;
      const converted = review.request.objects.map((o) => {
        const spec = { ...(o.spec as Record<string, unknown>) };
        if (o.apiVersion === 'tests.example.com/v1beta1' && desired === 'tests.example.com/v1') {
          spec.color = spec.hue;
          delete spec.hue;
        } else if (o.apiVersion === 'tests.example.com/v1' && desired === 'tests.example.com/v1beta1') {
          spec.hue = spec.color;
          delete spec.color;
        }
        return { ...o, apiVersion: desired, spec };
      });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: review.request.uid, convertedObjects: converted, result: { status: 'Success' } } }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/convert`, calls: () => calls });
  }));
}

function path(apiVersion: string, name = ''): string {
  return `/apis/${apiVersion}/shirts${name === '' ? '' : `/${name}`}`;
}

describe('startApiServer: the KEP-4358 integration scenario', function () {
  this.timeout(20_000);
  let server: ApiServer;
  let client: Client;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;

  const deleteAll = async (): Promise<void> => {
    const r = await client.delete(path('tests.example.com/v1'));
    expect(r.status).to.equal(200);
  };
  const createAll = async (): Promise<void> => {
    for (const s of vectors.instances) expect((await client.post(path('tests.example.com/v1'), s)).status).to.equal(201);
  };

  before(async () => {
    webhook = await startWebhook();
    ({ server, client } = await start({ bookmarkIntervalMs: 20 }));
    const crd = structuredClone(vectors.crdFixture) as KubeObject & { spec: Record<string, unknown> };
    crd.spec.conversion = {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { url: webhook.url, caBundle: readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')).toString('base64') },
        conversionReviewVersions: ['v1', 'v1beta1'],
      },
    };
    await createCRD(server, client, crd);
  });

  after(async () => {
    await server.close();
    await new Promise((resolve) => webhook.server.close(resolve));
  });

  it('converts through the webhook when reading another version', async () => {
    await createAll();
    const got = await client.get(path('tests.example.com/v1beta1', 'shirt1'));
    expect(got.status).to.equal(200);
    expect(got.body.apiVersion).to.equal('tests.example.com/v1beta1');
    expect(got.body.spec).to.deep.equal({ hue: 'blue', quantity: 2, size: 'S', branded: true });
    expect(webhook.calls()).to.be.greaterThan(0);
    await deleteAll();
  });

  describe('watch', () => {
    const watches = new Map<string, WatchStream>();

    before(async () => {
      await deleteAll();
      for (const c of integration) {
        const w = await client.watch(`${path(c.apiVersion!)}?watch=true&allowWatchBookmarks=true&fieldSelector=${encodeURIComponent(c.fieldSelector!)}`);
        watches.set(c.id, w);
      }
      await createAll();
      // Delete shirt1, then update shirt2 out of the color selections.
      expect((await client.delete(path('tests.example.com/v1', 'shirt1'))).status).to.equal(200);
      const shirt2 = (await client.get(path('tests.example.com/v1', 'shirt2'))).body as KubeObject & { spec: Record<string, unknown> };
      shirt2.spec.color = 'green';
      expect((await client.put(path('tests.example.com/v1', 'shirt2'), shirt2)).status).to.equal(200);
    });

    after(() => {
      for (const w of watches.values()) w.close();
    });

    for (const c of integration) {
      it(`${c.id} ${c.name}`, async () => {
        const w = watches.get(c.id)!;
        if (c.expected.watch?.error !== undefined) {
          expect(w.status).to.equal(400);
          expect(w.events[0].object).to.include({ reason: 'BadRequest', message: c.expected.list?.error });
          return;
        }
        // A bookmark at or after the last write proves every earlier event was delivered.
        const last = server.resourceVersion;
        const events = await w.until((e) => e.type === 'BOOKMARK' && Number(e.object.metadata.resourceVersion) >= last);
        const added = events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name).sort();
        const deleted = events.filter((e) => e.type === 'DELETED').map((e) => e.object.metadata.name).sort();
        expect(added, 'ADDED').to.deep.equal(c.expected.watch?.ADDED);
        expect(deleted, 'DELETED').to.deep.equal(c.expected.watch?.DELETED);
        for (const e of events.filter((x) => x.type !== 'BOOKMARK')) expect(e.object.apiVersion).to.equal(c.apiVersion);
      });
    }

    it('delivers an update out of the selection as DELETED with the previous state and the new resourceVersion', async () => {
      const w = watches.get('integration/001')!;
      const departure = w.events.find((e) => e.type === 'DELETED' && e.object.metadata.name === 'shirt2')!;
      expect(departure.object.spec).to.include({ color: 'blue' });
      const current = (await client.get(path('tests.example.com/v1', 'shirt2'))).body as KubeObject;
      expect(departure.object.metadata.resourceVersion).to.equal(current.metadata.resourceVersion);
    });
  });

  describe('list', () => {
    before(async () => {
      await deleteAll();
      await createAll();
    });

    for (const c of integration) {
      it(`${c.id} ${c.name}`, async () => {
        const r = await client.get(`${path(c.apiVersion!)}?fieldSelector=${encodeURIComponent(c.fieldSelector!)}`);
        if (c.expected.list?.error !== undefined) {
          expect(r.status).to.equal(c.expected.list.httpStatus);
          expect(r.body).to.include({ reason: 'BadRequest', message: c.expected.list.error });
          return;
        }
        expect(r.status).to.equal(200);
        expect((r.body.items as KubeObject[]).map((i) => i.metadata.name).sort()).to.deep.equal(c.expected.list?.names);
      });
    }
  });

  describe('deletecollection', () => {
    for (const c of integration) {
      it(`${c.id} ${c.name}`, async () => {
        await deleteAll();
        await createAll();
        const r = await client.delete(`${path(c.apiVersion!)}?fieldSelector=${encodeURIComponent(c.fieldSelector!)}`);
        if (c.expected.deleteCollection?.error !== undefined) {
          expect(r.status).to.equal(c.expected.deleteCollection.httpStatus);
          expect(r.body).to.include({ reason: 'BadRequest', message: c.expected.deleteCollection.error });
          return;
        }
        expect(r.status).to.equal(200);
        const remaining = ((await client.get(path('tests.example.com/v1'))).body.items as KubeObject[]).map((i) => i.metadata.name);
        const removed = ['shirt1', 'shirt2', 'shirt3'].filter((n) => !remaining.includes(n));
        expect(removed).to.deep.equal(c.expected.deleteCollection?.deleted);
      });
    }
  });

  it('combines field and label selectors', async () => {
    await deleteAll();
    await createAll();
    await client.patch(path('tests.example.com/v1', 'shirt1'), { metadata: { labels: { fit: 'slim' } } });
    await client.patch(path('tests.example.com/v1', 'shirt3'), { metadata: { labels: { fit: 'slim' } } });
    for (const [apiVersion, color] of [['tests.example.com/v1', 'spec.color'], ['tests.example.com/v1beta1', 'spec.hue']]) {
      const r = await client.get(`${path(apiVersion)}?labelSelector=fit%3Dslim&fieldSelector=${encodeURIComponent(`${color}=blue`)}`);
      expect((r.body.items as KubeObject[]).map((i) => i.metadata.name)).to.deep.equal(['shirt1']);
      const q = await client.get(`${path(apiVersion)}?labelSelector=fit%3Dslim&fieldSelector=spec.quantity%3D2`);
      expect((q.body.items as KubeObject[]).map((i) => i.metadata.name)).to.deep.equal(['shirt1', 'shirt3']);
    }
  });

  it('publishes x-kubernetes-selectable-fields in OpenAPI v3 (openapi/001)', async () => {
    const c = vectors.cases.find((x) => x.id === 'openapi/001')!;
    const doc = (await client.get('/openapi/v3/apis/tests.example.com/v1')).body;
    const schema = doc.components.schemas[c.expected.schemaName as string];
    expect(schema['x-kubernetes-selectable-fields']).to.deep.equal(c.expected['x-kubernetes-selectable-fields']);
  });
});
