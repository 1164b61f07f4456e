// HTTP/1.1 pipelining (RFC 9112 §9.3: a server answers pipelined requests in the order it received
// them). The informer pipelines its delete-reason lookups on one keep-alive connection, so the embedded
// server must answer many GETs written at once in order, whatever each one costs to answer.
import { expect } from 'chai';
import { createServer, type Server } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { ApiServer } from '@kubekit/apiserver';
import type { KubeObject } from '@kubekit/core';
import { generateCertificates } from '@kubekit/webhook';
import { createCRD, shirtCRD, start, type Client } from './internal/client.js';

interface Answer { status: number; headers: Map<string, string>; body: string }

/**
 * Reads `count` HTTP/1.1 responses from a socket, in the order they arrive (Content-Length or chunked
 * bodies). Bounded: rejects after `timeoutMs`, or when the socket ends first.
 */
function readAnswers(socket: Socket, count: number, timeoutMs: number): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const answers: Answer[] = [];
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`only ${answers.length} of ${count} answers within ${timeoutMs} ms`)), timeoutMs);
    const finish = (err?: Error): void => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (err !== undefined) reject(err);
      else resolve(answers);
    };
    // One response off the front of the buffer, or undefined when it has not all arrived.
    const take = (): Answer | undefined => {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      let at = end + 4;
      let body: Buffer;
      if (headers.get('transfer-encoding') === 'chunked') {
        const parts: Buffer[] = [];
        for (;;) {
          const lineEnd = buf.indexOf('\r\n', at);
          if (lineEnd < 0) return undefined;
          const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
          if (buf.length < lineEnd + 2 + size + 2) return undefined;
          parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 2 + size + 2;
          if (size === 0) break;
        }
        body = Buffer.concat(parts);
      } else {
        const length = Number(headers.get('content-length') ?? '0');
        if (buf.length < at + length) return undefined;
        body = buf.subarray(at, at + length);
        at += length;
      }
      buf = buf.subarray(at);
      return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (let a = take(); a !== undefined; a = take()) {
        answers.push(a);
        if (answers.length === count) return finish();
      }
    });
    socket.once('end', () => finish(new Error(`the connection ended after ${answers.length} of ${count} answers`)));
    socket.once('error', (err) => finish(err));
  });
}

/** Writes GETs of `paths` in one socket write to the server and reads as many answers. */
async function pipelined(server: ApiServer, paths: string[], onConnected?: (socket: Socket) => Promise<void>): Promise<Answer[]> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const answers = readAnswers(socket, paths.length, 20_000);
    socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n\r\n`).join(''));
    await onConnected?.(socket);
    return await answers;
  } finally {
    socket.destroy();
  }
}

describe('the embedded server over one HTTP/1.1 connection', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  let webhook: Server;
  /** Conversion requests the webhook holds until the test lets them go. */
  const held: (() => void)[] = [];
  let heldSignal: (() => void) | undefined;
  const cms = '/api/v1/namespaces/default/configmaps';
  const certs = generateCertificates({ hosts: ['shirts-webhook.shop.svc'] });

  before(async () => {
    // A conversion webhook that answers only when released: a GET of the shirt in v1beta1 waits on it.
    webhook = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { request } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };
        const converted = request.objects.map((o) => ({ ...o, apiVersion: request.desiredAPIVersion }));
        held.push(() => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: request.uid, convertedObjects: converted, result: { status: 'Success' } } }));
        });
        heldSignal?.();
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', () => r()));
    const webhookPort = (webhook.address() as AddressInfo).port;
    ({ server, client } = await start({ resolveWebhookService: () => `https://127.0.0.1:${webhookPort}` }));
    for (let i = 0; i < 40; i++) {
      const r = await client.post(cms, { metadata: { name: `cm-${i}` }, data: { i: String(i) } });
      expect(r.status, r.text).to.equal(201);
    }
    const crd = shirtCRD() as KubeObject & { spec: { versions: Record<string, unknown>[]; conversion?: unknown } };
    const beta = structuredClone(crd.spec.versions[0]) as { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } } & Record<string, unknown>;
    // Versions whose schemas are all the same are refused: v1beta1 knows one more field.
    beta.schema.openAPIV3Schema.properties.spec.properties.fit = { type: 'string' };
    delete beta.selectableFields;
    delete beta.additionalPrinterColumns;
    crd.spec.versions = [crd.spec.versions[0], { ...beta, name: 'v1beta1', storage: false }];
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'shop', name: 'shirts-webhook', path: '/convert', port: 8443 }, caBundle: certs.caBundle } } };
    await createCRD(server, client, crd);
    const shirt = await client.post('/apis/stable.example.com/v1/namespaces/default/shirts', { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 's' }, spec: { color: 'blue', size: 'M' } });
    expect(shirt.status, shirt.text).to.equal(201);
  });

  after(async () => {
    for (const release of held.splice(0)) release();
    await server.close();
    webhook.closeAllConnections();
    await new Promise((r) => webhook.close(r));
  });

  it('answers 50 GETs written in one socket write, in order', async () => {
    // Existing objects in a scrambled order, missing ones (404), and slower answers (a list, the
    // OpenAPI document) early in the line, so that an answer out of order would show.
    const paths: string[] = [];
    for (let i = 0; i < 50; i++) {
      if (i === 2) paths.push('/openapi/v3/api/v1');
      else if (i === 5) paths.push(`${cms}?labelSelector=none%3Dhere`);
      else if (i % 7 === 3) paths.push(`${cms}/missing-${i}`);
      else paths.push(`${cms}/cm-${(i * 17) % 40}`);
    }
    const got = await pipelined(server, paths);
    expect(got).to.have.length(50);
    got.forEach((a, i) => {
      const p = paths[i];
      const body = JSON.parse(a.body) as { kind?: string; metadata?: { name?: string }; openapi?: string; details?: { name?: string } };
      if (p.startsWith('/openapi/')) {
        expect([a.status, typeof body.openapi], `answer ${i}`).to.deep.equal([200, 'string']);
      } else if (p.includes('?')) {
        expect([a.status, body.kind], `answer ${i}`).to.deep.equal([200, 'ConfigMapList']);
      } else if (p.includes('/missing-')) {
        expect([a.status, body.kind, body.details?.name], `answer ${i}`).to.deep.equal([404, 'Status', p.slice(p.lastIndexOf('/') + 1)]);
      } else {
        expect([a.status, body.kind, body.metadata?.name], `answer ${i}`).to.deep.equal([200, 'ConfigMap', p.slice(p.lastIndexOf('/') + 1)]);
      }
    });
  });

  it('keeps the order when an earlier answer waits on a conversion webhook and later ones are ready at once', async () => {
    const paths = [`${cms}/cm-0`, '/apis/stable.example.com/v1beta1/namespaces/default/shirts/s', ...Array.from({ length: 48 }, (_, i) => `${cms}/cm-${(i * 7) % 40}`)];
    const webhookAsked = new Promise<void>((resolve) => { heldSignal = resolve; });
    const got = await pipelined(server, paths, async () => {
      // The shirt's GET is with the webhook: let it answer (bounded by the test's timeout).
      await webhookAsked;
      for (const release of held.splice(0)) release();
    });
    const names = got.map((a) => [a.status, (JSON.parse(a.body) as { metadata: { name: string } }).metadata.name]);
    expect(names).to.deep.equal(paths.map((p) => [200, p.slice(p.lastIndexOf('/') + 1)]));
    expect((JSON.parse(got[1].body) as KubeObject).apiVersion).to.equal('stable.example.com/v1beta1');
  });
});
