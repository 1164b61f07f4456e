import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { FakeClock, type KubeObject, type Logger } from '@kubekit/core';
import { Manager } from '@kubekit/controller';
import { allow, deny, generateCertificates, startWebhookServer, WebhookMetrics, WebhookServer, writeCertificates, type ConversionReview, type AdmissionReview } from '@kubekit/webhook';
import { acceptError, listeningServer } from '../../../test/support/listeningServer.js';

interface Reply { status: number; body: string; json: () => unknown }

function post(url: string, caBundle: string, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }, method = 'POST'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, ca: Buffer.from(caBundle, 'base64').toString('utf8'), headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function peerCertificate(url: string, caBundle: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ca: Buffer.from(caBundle, 'base64').toString('utf8'), servername: undefined }, () => {
      resolve(socket.getPeerX509Certificate()!.fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

const conversionBody = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
  request: { uid: 'c-1', desiredAPIVersion: 'g.example.com/v1', objects: [{ apiVersion: 'g.example.com/v2', kind: 'K', metadata: { name: 'a' }, spec: { x: 1 } }] },
});

const admissionBody = (object: KubeObject): string => JSON.stringify({
  apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
  request: { uid: 'a-1', kind: { group: 'g.example.com', version: 'v1', kind: 'K' }, resource: { group: 'g.example.com', version: 'v1', resource: 'ks' }, operation: 'CREATE', userInfo: {}, object },
});

describe('startWebhookServer', function () {
  this.timeout(30_000);

  it('serves conversion, validation and mutation over https on 127.0.0.1 with a generated CA', async () => {
    const webhook = await startWebhookServer({
      conversion: { convert: (o, to) => ({ ...o, apiVersion: to }) },
      validate: (req: { object?: KubeObject }) => (req.object?.spec === undefined ? deny('spec is required') : allow()),
      mutate: (req: { object?: KubeObject<Record<string, unknown>> }) => { req.object!.spec!.defaulted = true; },
    });
    try {
      expect(webhook.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = new X509Certificate(Buffer.from(webhook.caBundle, 'base64'));
      expect(ca.ca).to.equal(true);
      const converted = await post(`${webhook.url}/convert`, webhook.caBundle, conversionBody);
      expect(converted.status).to.equal(200);
      expect((converted.json() as ConversionReview).response).to.deep.include({ uid: 'c-1', result: { status: 'Success' } });
      const denied = await post(`${webhook.url}/validate`, webhook.caBundle, admissionBody({ metadata: { name: 'a' } }));
      expect((denied.json() as AdmissionReview).response).to.deep.include({ allowed: false, status: { status: 'Failure', code: 403, reason: 'Forbidden', message: 'spec is required' } });
      const mutated = (await post(`${webhook.url}/mutate`, webhook.caBundle, admissionBody({ metadata: { name: 'a' }, spec: {} }))).json() as AdmissionReview;
      expect(JSON.parse(Buffer.from(mutated.response!.patch!, 'base64').toString())).to.deep.equal([{ op: 'add', path: '/spec/defaulted', value: true }]);
    } finally {
      await webhook.close();
    }
  });

  it('answers requests that are not reviews with a Status: 400, 404, 405, 413, 415', async () => {
    const webhook = await startWebhookServer({ conversion: { convert: (o) => o }, maxRequestBytes: 1024 });
    try {
      const cases: [Promise<Reply>, number, string, RegExp][] = [
        [post(`${webhook.url}/convert`, webhook.caBundle, '{"apiVersion":'), 400, 'BadRequest', /invalid JSON/],
        [post(`${webhook.url}/convert`, webhook.caBundle, '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}'), 400, 'BadRequest', /ConversionReview has no request/],
        [post(`${webhook.url}/validate`, webhook.caBundle, '{}'), 404, 'NotFound', /no webhook is served at \/validate/],
        [post(`${webhook.url}/convert`, webhook.caBundle, '', {}, 'PUT'), 405, 'MethodNotAllowed', /PUT is not supported on \/convert/],
        [post(`${webhook.url}/convert`, webhook.caBundle, 'x'.repeat(2048)), 413, 'RequestEntityTooLarge', /larger than 1024 bytes/],
        [post(`${webhook.url}/convert`, webhook.caBundle, conversionBody, { 'Content-Type': 'text/plain' }), 415, 'UnsupportedMediaType', /expected application\/json/],
      ];
      for (const [reply, status, reason, message] of cases) {
        const r = await reply;
        expect(r.status, r.body).to.equal(status);
        const body = r.json() as { reason: string; message: string; code: number; kind: string };
        expect(body).to.include({ kind: 'Status', reason, code: status });
        expect(body.message).to.match(message);
      }
    } finally {
      await webhook.close();
    }
  });

  it('answers hostile bodies without harm: nesting beyond the apiserver\'s limit, __proto__ keys in objects and patches', async () => {
    const webhook = await startWebhookServer({
      conversion: { convert: (o, to) => ({ ...o, apiVersion: to }) },
      mutate: (req: { object?: KubeObject<Record<string, unknown>> }) => { req.object!.spec!.checked = true; },
    });
    try {
      const deep = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"d","kind":{},"resource":{},"operation":"CREATE","userInfo":{},"object":{"metadata":{},"spec":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}}}`;
      const r = await post(`${webhook.url}/mutate`, webhook.caBundle, deep);
      expect(r.status).to.equal(400);
      expect(r.json()).to.include({ reason: 'BadRequest', message: 'request.object: nested deeper than 10000 levels' });
      const hostile = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"h","kind":{},"resource":{},"operation":"CREATE","userInfo":{},"object":{"metadata":{"name":"a","__proto__":{"polluted":true}},"spec":{"__proto__":{"polluted":true}}}}}`;
      const m = (await post(`${webhook.url}/mutate`, webhook.caBundle, hostile)).json() as AdmissionReview;
      expect(m.response!.allowed).to.equal(true);
      expect(JSON.parse(Buffer.from(m.response!.patch!, 'base64').toString())).to.deep.equal([{ op: 'add', path: '/spec/checked', value: true }]);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    } finally {
      await webhook.close();
    }
  });

  it('refuses TLS older than 1.2', async () => {
    const webhook = await startWebhookServer({ validate: () => allow() });
    try {
      const { port } = new URL(webhook.url);
      const error = await new Promise<Error>((resolve) => {
        const s = connect({ host: '127.0.0.1', port: Number(port), maxVersion: 'TLSv1.1', minVersion: 'TLSv1', rejectUnauthorized: false }, () => resolve(new Error('connected')));
        s.on('error', resolve);
      });
      expect(error.message).to.not.equal('connected');
    } finally {
      await webhook.close();
    }
  });

  it('answers 504 when a handler does not answer within requestTimeoutMs (fake clock)', async () => {
    const clock = new FakeClock();
    let called!: () => void;
    const handlerCalled = new Promise<void>((r) => (called = r));
    const webhook = await startWebhookServer({ clock, requestTimeoutMs: 5_000, validate: () => { called(); return new Promise(() => {}); } });
    try {
      const reply = post(`${webhook.url}/validate`, webhook.caBundle, admissionBody({ metadata: { name: 'a' } }));
      await handlerCalled;
      await clock.advance(5_000);
      const r = await reply;
      expect(r.status).to.equal(504);
      expect(r.json()).to.include({ reason: 'Timeout', message: 'the webhook handler did not answer within 5000ms' });
    } finally {
      await webhook.close();
    }
  });

  it('answers 408 and closes a connection whose request body is not all sent within requestTimeoutMs', async function () {
    // Node checks request deadlines every connectionsCheckingInterval (30 s unless set): the server
    // must check often enough that a stalled client is cut near requestTimeoutMs, not half a minute on.
    this.timeout(15_000);
    const webhook = await startWebhookServer({ requestTimeoutMs: 1_000, validate: () => allow() });
    try {
      const { port } = new URL(webhook.url);
      const firstLine = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect({ host: '127.0.0.1', port: Number(port), ca: Buffer.from(webhook.caBundle, 'base64').toString('utf8') }, () => {
          // Promises 100 bytes, sends 2, then stalls.
          socket.write('POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"');
        });
        socket.on('data', (d: Buffer) => { text += d.toString('utf8'); });
        socket.on('close', () => resolve(text.split('\r\n')[0]));
        socket.on('error', reject);
      });
      expect(firstLine).to.equal('HTTP/1.1 408 Request Timeout');
    } finally {
      await webhook.close();
    }
  });

  it('counts requests by path and code, and reviews by result, on /metrics', async () => {
    const webhook = await startWebhookServer({ validate: (req: { object?: KubeObject }) => (req.object?.spec ? allow() : deny('no')) });
    try {
      await post(`${webhook.url}/validate`, webhook.caBundle, admissionBody({ metadata: { name: 'a' }, spec: {} }));
      await post(`${webhook.url}/validate`, webhook.caBundle, admissionBody({ metadata: { name: 'a' } }));
      await post(`${webhook.url}/validate`, webhook.caBundle, 'nope');
      const text = (await post(`${webhook.url}/metrics`, webhook.caBundle, '', {}, 'GET')).body;
      expect(text).to.include('controller_runtime_webhook_requests_total{webhook="/validate",code="200"} 2');
      expect(text).to.include('controller_runtime_webhook_requests_total{webhook="/validate",code="400"} 1');
      expect(text).to.include('kubekit_webhook_reviews_total{webhook="/validate",result="allowed"} 1');
      expect(text).to.include('kubekit_webhook_reviews_total{webhook="/validate",result="denied"} 1');
      expect(text).to.include('controller_runtime_webhook_latency_seconds_count{webhook="/validate"} 3');
    } finally {
      await webhook.close();
    }
  });

  it('reloads certificate files when they change; new connections get the new certificate', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubekit-webhook-'));
    const first = generateCertificates();
    const files = await writeCertificates(dir, first);
    const reloads: (Error | undefined)[] = [];
    let notify: () => void = () => {};
    const webhook = await startWebhookServer({
      tls: { certFile: files.certFile, keyFile: files.keyFile, caFile: files.caCertFile },
      validate: () => allow(),
      onCertificatesReloaded: (err) => { reloads.push(err); notify(); },
    });
    try {
      expect(webhook.caBundle).to.equal(first.caBundle);
      const before = await peerCertificate(webhook.url, first.caBundle);
      expect(before).to.equal(new X509Certificate(first.cert).fingerprint256);
      const second = generateCertificates();
      await writeCertificates(dir, second);
      const wanted = new X509Certificate(second.cert).fingerprint256;
      let served = before;
      // Each file write may trigger a reload; wait (bounded) until the last pair serves.
      for (let i = 0; i < 20 && served !== wanted; i++) {
        await new Promise<void>((r) => { notify = r; if (reloads.length > i) r(); });
        served = await peerCertificate(webhook.url, second.caBundle).catch(() => served);
      }
      expect(served).to.equal(wanted);
      expect(webhook.server.caBundle).to.equal(second.caBundle);
    } finally {
      await webhook.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('WebhookServer', function () {
  this.timeout(30_000);

  it('runs in a Manager: ready once serving, stopped when the manager stops', async () => {
    const manager0 = new Manager({ probes: { port: 0 } });
    const server = new WebhookServer({ validate: () => allow(), metrics: new WebhookMetrics(manager0.metrics.registry) });
    // A leader-only runnable that runs until stopped stands for the operator's controllers.
    const controller = { start: (signal: AbortSignal) => new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true })) };
    const manager = manager0.add(server, { leaderElection: false }).add(controller).addReadyCheck('webhook', () => server.readyCheck());
    expect(() => server.readyCheck()).to.throw(/not serving yet/);
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await server.waitForSync();
    const ready = await fetch(`${manager.probeAddress()!}/readyz`);
    expect(ready.status).to.equal(200);
    expect((await post(`${server.url}/readyz`, server.caBundle, '', {}, 'GET')).body).to.equal('ok');
    await post(`${server.url}/validate`, server.caBundle, admissionBody({ metadata: { name: 'a' } }));
    const metrics = await (await fetch(`${manager.probeAddress()!}/metrics`)).text();
    expect(metrics, 'the webhook metrics are served on the manager\'s /metrics').to.include('kubekit_webhook_reviews_total{webhook="/validate",result="allowed"} 1');
    stop.abort();
    await running;
    expect(() => server.readyCheck()).to.throw(/not serving yet/);
  });

  it('keeps answering after a connection could not be accepted (an error event after listening, which ended the process)', async () => {
    const warnings: string[] = [];
    const logger: Logger = { error: () => {}, info: () => {}, debug: () => {}, warn: (msg: string) => void warnings.push(msg), child: () => logger };
    const webhook = await startWebhookServer({ conversion: { convert: (o, to) => ({ ...o, apiVersion: to }) }, logger });
    try {
      listeningServer(Number(new URL(webhook.url).port)).emit('error', acceptError());
      expect(warnings).to.deep.equal(['accepting a connection failed; still listening']);
      expect((await post(`${webhook.url}/convert`, webhook.caBundle, conversionBody)).status).to.equal(200);
    } finally {
      await webhook.close();
    }
  });
});
