import { expect } from 'chai';
import { parse } from 'yaml';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { Client, start } from './internal/client.js';
import { acceptError, listeningServer } from '../../../test/support/listeningServer.js';

describe('startApiServer', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  it('binds 127.0.0.1 on a free port by default', () => {
    expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).to.be.greaterThan(0);
  });

  it('keeps serving after a connection could not be accepted (an error event after listening, which ended the process)', async () => {
    const warnings: string[] = [];
    const logger = { error: () => {}, info: () => {}, debug: () => {}, warn: (msg: string) => void warnings.push(msg), child: () => logger };
    const own = await startApiServer({ logger });
    try {
      listeningServer(own.port).emit('error', acceptError());
      expect(warnings).to.deep.equal(['accepting a connection failed; still listening']);
      expect((await fetch(`${own.url}/api`)).status).to.equal(200);
    } finally {
      await own.close();
    }
  });

  it('returns a kubeconfig that points at the server', () => {
    const kc = parse(server.kubeconfig) as { clusters: { cluster: { server: string } }[]; 'current-context': string };
    expect(kc.clusters[0].cluster.server).to.equal(server.url);
    expect(kc['current-context']).to.equal('kubekit');
  });

  it('keeps a watch open whose timeoutSeconds is longer than one Node timer takes (about 24.8 days), on the real clock', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const w = await client.watch(`${cms}?watch=true&timeoutSeconds=3000000&resourceVersion=${server.resourceVersion}`);
    try {
      await client.post(cms, { metadata: { name: 'long-watch' } });
      const e = await w.next();
      expect(`${e.type} ${e.object.metadata.name}`).to.equal('ADDED long-watch');
    } finally {
      w.close();
    }
  });

  it('answers /version and the health checks', async () => {
    const v = await client.get('/version');
    expect(v.status).to.equal(200);
    // The version whose behaviour it follows, as build metadata (semver ranges take it), indented as the apiserver writes it.
    expect(v.body).to.include({ major: '1', minor: '34', emulationMajor: '1', emulationMinor: '34', minCompatibilityMajor: '1', minCompatibilityMinor: '33', gitVersion: 'v1.34.4+kubekit' });
    expect(v.text.startsWith('{\n  "major": "1",\n  "minor": "34",\n  "emulationMajor"')).to.equal(true);
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await client.get(p);
      expect(r.status).to.equal(200);
      expect(r.text).to.equal('ok');
    }
  });

  it('creates the default namespaces', async () => {
    const r = await client.get('/api/v1/namespaces');
    expect(r.status).to.equal(200);
    const names = (r.body.items as { metadata: { name: string } }[]).map((n) => n.metadata.name);
    expect(names).to.deep.equal(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  it('answers unknown resources with the apiserver\'s 404 Status, or Go\'s plain text for an unknown group (see notFound.test.ts)', async () => {
    const r = await client.get('/apis/apps/v1/things');
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404,
    });
    const unknownGroup = await client.get('/apis/nope.example.com/v1/things');
    expect([unknownGroup.status, unknownGroup.text]).to.deep.equal([404, '404 page not found\n']);
  });

  it('answers a missing object with NotFound naming the resource', async () => {
    const r = await client.get('/api/v1/namespaces/default/configmaps/missing');
    expect(r.status).to.equal(404);
    expect(r.body.message).to.equal('configmaps "missing" not found');
    expect(r.body.details).to.deep.equal({ name: 'missing', kind: 'configmaps' });
  });

  it('refuses a body larger than the limit with 413', async () => {
    const small = await startApiServer({ maxRequestBodyBytes: 1024 });
    try {
      const big = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { x: 'y'.repeat(4096) } };
      const r = await new Client(small.url).post('/api/v1/namespaces/default/configmaps', big);
      expect(r.status).to.equal(413);
      expect(r.body).to.include({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 1024' });
    } finally {
      await small.close();
    }
  });

  it('requires the bearer token when one is set, except for /version and the health endpoints (where a wrong one is still a 401); without one, a request is the anonymous user\'s', async () => {
    const secured = await startApiServer({ token: 's3cret' });
    try {
      const anonymous = new Client(secured.url);
      // RBAC allows the anonymous user what the bootstrap roles bind to system:unauthenticated (test/hostile/anonymous.test.ts).
      const denied = await anonymous.get('/api/v1/namespaces');
      expect(denied.status).to.equal(403);
      expect(denied.body).to.include({ kind: 'Status', reason: 'Forbidden', message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope', code: 403 });
      const wrong = await new Client(secured.url, 'wrong').get('/api');
      expect(wrong.status).to.equal(401);
      expect(wrong.body).to.include({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
      expect((await anonymous.get('/version')).status).to.equal(200);
      expect((await new Client(secured.url, 's3cret').get('/api/v1/namespaces')).status).to.equal(200);
      // The health endpoints are public, but a token that is sent must authenticate (as on kube-apiserver,
      // test/hostile/healthChecks.test.ts); a single check's path is not public.
      expect((await anonymous.get('/livez')).status).to.equal(200);
      expect((await new Client(secured.url, 'wrong').get('/readyz')).status).to.equal(401);
      expect((await new Client(secured.url, 'wrong').get('/version')).status).to.equal(401);
      expect((await anonymous.get('/livez/ping')).status).to.equal(403);
      expect((await new Client(secured.url, 's3cret').get('/livez/ping')).status).to.equal(200);
      expect(parse(secured.kubeconfig).users[0].user).to.deep.equal({ token: 's3cret' });
    } finally {
      await secured.close();
    }
  });

  it('logs one line per request, with the FlowSchema and priority level it was classified under', async () => {
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const logger = { info: (m: string, f?: Record<string, unknown>) => lines.push([m, f]), warn() {}, error() {}, debug() {}, child() { return logger; } };
    const logged = await startApiServer({ logger });
    try {
      await new Client(logged.url).get('/api/v1/namespaces/default');
      await new Client(logged.url).get('/api/v1/namespaces/nope');
      await new Client(logged.url).get('/api/v1/namespaces/default/pods/x/log');
    } finally {
      await logged.close();
    }
    const fields = (m: string): unknown => lines.filter(([l]) => l === m).map(([, f]) => [f?.apf_fs, f?.apf_pl]);
    expect([fields('GET /api/v1/namespaces/default 200'), fields('GET /api/v1/namespaces/nope 404'), fields('GET /api/v1/namespaces/default/pods/x/log 404')])
      .to.deep.equal([[['exempt', 'exempt']], [['exempt', 'exempt']], [[undefined, undefined]]]);
  });

  it('parses a YAML body indented past 400 columns on a worker, with the deepYAML options given', async () => {
    const one = await startApiServer({ deepYAML: { maxWorkers: 1, maxWaiting: 0, timeoutMs: 30_000 } });
    try {
      const deep = `${' '.repeat(500)}x`;
      const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: indented\ndata:\n  a: |\n${deep}\n`;
      const r = await new Client(one.url).request('POST', '/api/v1/namespaces/default/configmaps', text, 'application/yaml');
      expect(r.status, r.text).to.equal(201);
      expect(r.body.data).to.deep.equal({ a: 'x\n' });
    } finally {
      await one.close();
    }
  });

  it('refuses deepYAML options that make no sense before it starts anything', async () => {
    const err = await startApiServer({ deepYAML: { maxWorkers: 0 } }).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(RangeError);
    expect((err as Error).message).to.equal('deepYAML.maxWorkers must be an integer of at least 1, got 0');
  });

  it('reports an older Kubernetes version with the field selector gate off', async () => {
    const old = await startApiServer({ customResourceFieldSelectors: false });
    try {
      expect((await new Client(old.url).get('/version')).body).to.include({ minor: '30' });
    } finally {
      await old.close();
    }
  });
});
