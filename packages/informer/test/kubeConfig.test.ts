import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { RequestOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from '@kubekit/core';
import { loadKubeConfig } from '../src/kubeConfig.js';
import { ListerWatcher } from '../src/listerWatcher.js';
import { FakeClock } from './helpers/fakeClock.js';

const tls = (name: string): string => readFileSync(new URL(`./fixtures/tls/${name}`, import.meta.url), 'utf8');
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function config(cluster: string[], user: string[], extra: string[] = []): string {
  return [
    'apiVersion: v1', 'kind: Config', 'current-context: main',
    'clusters:', '- name: c', '  cluster:', ...cluster.map((l) => `    ${l}`),
    'users:', '- name: u', '  user:', ...(user.length === 0 ? ['    {}'] : user.map((l) => `    ${l}`)),
    'contexts:', '- name: main', '  context:', '    cluster: c', '    user: u', '    namespace: shop',
    '- name: other', '  context:', '    cluster: c', '    user: u',
    ...extra,
  ].join('\n');
}

async function applied(text: string, context?: string): Promise<RequestOptions> {
  const kc = await loadKubeConfig({ kind: 'string', text }, { context });
  const opts: RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  return opts;
}

describe('loadKubeConfig', () => {
  let dir: string;
  const env = { ...process.env };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubekit-kubeconfig-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    process.env = { ...env };
  });

  it('does read the current context, cluster and token without @kubernetes/client-node', async () => {
    const kc = await loadKubeConfig({ kind: 'string', text: config(['server: https://10.0.0.1:6443', 'tls-server-name: api.example'], ['token: abc']) });
    expect(kc.constructor.name).to.equal('KubekitKubeConfig');
    expect(kc.getCurrentCluster()).to.deep.equal({ server: 'https://10.0.0.1:6443', skipTLSVerify: false, tlsServerName: 'api.example' });
    const opts: RequestOptions = {};
    await kc.applyToHTTPSOptions(opts);
    expect(opts.headers).to.deep.equal({ Authorization: 'Bearer abc' });
    expect(opts.servername).to.equal('api.example');
    expect((kc as unknown as { namespace: string }).namespace).to.equal('shop');
  });

  it('does decode inline certificate data', async () => {
    const opts = await applied(config(['server: https://h', `certificate-authority-data: ${b64(tls('ca.crt'))}`], [`client-certificate-data: ${b64(tls('client.crt'))}`, `client-key-data: ${b64(tls('client.key'))}`]));
    expect(String(opts.ca)).to.equal(tls('ca.crt'));
    expect(String(opts.cert)).to.equal(tls('client.crt'));
    expect(String(opts.key)).to.equal(tls('client.key'));
    expect(opts.headers).to.deep.equal({});
  });

  it('does hand out the same decoded certificate instances on every request (so the REST client reuses its agent)', async () => {
    const kc = await loadKubeConfig({ kind: 'string', text: config(['server: https://h', `certificate-authority-data: ${b64(tls('ca.crt'))}`], [`client-certificate-data: ${b64(tls('client.crt'))}`, `client-key-data: ${b64(tls('client.key'))}`]) });
    const first: RequestOptions = {};
    const second: RequestOptions = {};
    await kc.applyToHTTPSOptions(first);
    await kc.applyToHTTPSOptions(second);
    expect([second.ca === first.ca, second.cert === first.cert, second.key === first.key]).to.deep.equal([true, true, true]);
    expect(String(second.ca)).to.equal(tls('ca.crt'));
  });

  it('does apply basic auth, impersonation and insecure-skip-tls-verify', async () => {
    const opts = await applied(config(['server: https://h', 'insecure-skip-tls-verify: true'], ['username: ann', 'password: pw', 'as: bob', 'as-groups: [g1, g2]']));
    expect(opts.auth).to.equal('ann:pw');
    expect(opts.rejectUnauthorized).to.equal(false);
    expect(opts.headers).to.deep.equal({ 'Impersonate-User': 'bob', 'Impersonate-Group': ['g1', 'g2'] });
  });

  it('does use the context asked for, and name a missing one', async () => {
    const kc = await loadKubeConfig({ kind: 'string', text: config(['server: https://h'], []) }, { context: 'other' });
    expect((kc as unknown as { contextName: string }).contextName).to.equal('other');
    const err = await loadKubeConfig({ kind: 'string', text: config(['server: https://h'], []) }, { context: 'nope' }).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError);
    expect((err as Error).message).to.equal('context "nope" does not exist in the kubeconfig');
  });

  it('does read certificate files relative to the kubeconfig file and verify the server with them', async () => {
    writeFileSync(join(dir, 'ca.crt'), tls('ca.crt'));
    writeFileSync(join(dir, 'client.crt'), tls('client.crt'));
    writeFileSync(join(dir, 'client.key'), tls('client.key'));
    let cn: unknown;
    const server = https.createServer({ key: tls('server.key'), cert: tls('server.crt'), ca: tls('ca.crt'), requestCert: true, rejectUnauthorized: true }, (req, res) => {
      cn = (req.socket as TLSSocket).getPeerCertificate().subject.CN;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(join(dir, 'config'), config([`server: ${url}`, 'certificate-authority: ca.crt'], ['client-certificate: client.crt', 'client-key: client.key']));
    try {
      const kc = await loadKubeConfig({ kind: 'file', path: join(dir, 'config') });
      const lw = new ListerWatcher(kc, { apiVersion: 'v1', plural: 'pods' });
      await lw.list();
      lw.close();
      expect(cn).to.equal('kubekit-test-user');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('does merge $KUBECONFIG files, the first definition winning', async () => {
    writeFileSync(join(dir, 'a'), config(['server: https://first'], ['token: one']));
    writeFileSync(join(dir, 'b'), ['apiVersion: v1', 'kind: Config', 'current-context: second', 'clusters:', '- name: c2', '  cluster:', '    server: https://second',
      'users: []', 'contexts:', '- name: second', '  context:', '    cluster: c2', '    user: u'].join('\n'));
    process.env.KUBECONFIG = `${join(dir, 'missing')}:${join(dir, 'a')}:${join(dir, 'b')}`;
    const kc = await loadKubeConfig();
    expect(kc.getCurrentCluster()?.server).to.equal('https://first');
    const second = await loadKubeConfig({ kind: 'default' }, { context: 'second' });
    expect(second.getCurrentCluster()?.server).to.equal('https://second');
    const opts: RequestOptions = {};
    await second.applyToHTTPSOptions(opts);
    expect(opts.headers).to.deep.equal({ Authorization: 'Bearer one' });
  });

  it('does read the in-cluster service account and reread its rotating token every minute', async () => {
    writeFileSync(join(dir, 'token'), 'first\n');
    writeFileSync(join(dir, 'ca.crt'), tls('ca.crt'));
    process.env.KUBERNETES_SERVICE_HOST = 'fd00::1';
    process.env.KUBERNETES_SERVICE_PORT = '443';
    const clock = new FakeClock();
    const kc = await loadKubeConfig({ kind: 'cluster' }, { serviceAccountDir: dir, clock });
    expect(kc.getCurrentCluster()?.server).to.equal('https://[fd00::1]:443');
    const token = async (): Promise<unknown> => {
      const opts: RequestOptions = {};
      await kc.applyToHTTPSOptions(opts);
      expect(String(opts.ca)).to.equal(tls('ca.crt'));
      return (opts.headers as Record<string, string>).Authorization;
    };
    expect(await token()).to.equal('Bearer first');
    writeFileSync(join(dir, 'token'), 'second\n');
    expect(await token()).to.equal('Bearer first');
    clock.advance(60_000);
    expect(await token()).to.equal('Bearer second');
    delete process.env.KUBERNETES_SERVICE_HOST;
    const err = await loadKubeConfig({ kind: 'cluster' }, { serviceAccountDir: dir }).then(() => undefined, (e: unknown) => e);
    expect((err as Error).message).to.match(/not running in a cluster/);
  });

  it('does run an exec credential plugin once and reuse its credential until it expires', async () => {
    const counter = join(dir, 'runs');
    writeFileSync(counter, '');
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    const script = [
      "const fs = require('fs');",
      `fs.appendFileSync(${JSON.stringify(counter)}, 'x');`,
      'const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);',
      `process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token: 'exec-' + process.env.EXTRA + '-' + info.spec.cluster.server, expirationTimestamp: ${JSON.stringify(expires)} } }));`,
    ].join('\n');
    writeFileSync(join(dir, 'plugin.cjs'), script);
    const text = config(['server: https://h'], [
      'exec:', '  apiVersion: client.authentication.k8s.io/v1', `  command: ${JSON.stringify(process.execPath)}`, `  args: [${JSON.stringify(join(dir, 'plugin.cjs'))}]`,
      '  env: [{name: EXTRA, value: e1}]', '  provideClusterInfo: true', '  interactiveMode: Never',
    ]);
    const kc = await loadKubeConfig({ kind: 'string', text });
    for (let i = 0; i < 3; i++) {
      const opts: RequestOptions = {};
      await kc.applyToHTTPSOptions(opts);
      expect((opts.headers as Record<string, string>).Authorization).to.equal('Bearer exec-e1-https://h');
    }
    expect(readFileSync(counter, 'utf8')).to.equal('x');
  });

  it('does report a failing exec plugin as Unauthorized', async () => {
    const text = config(['server: https://h'], ['exec:', `  command: ${JSON.stringify(process.execPath)}`, "  args: ['-e', 'process.exit(3)']"]);
    const kc = await loadKubeConfig({ kind: 'string', text });
    const err = await kc.applyToHTTPSOptions({}).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError);
    expect(err).to.include({ reason: 'Unauthorized' });
  });

  it('does hand a kubeconfig it cannot serve to @kubernetes/client-node', async () => {
    const text = config(['server: https://h'], ['auth-provider:', '  name: oidc', '  config: {id-token: t, idp-issuer-url: "https://issuer"}']);
    // (By name: the test and the lazy import may see different module instances under tsx.)
    expect((await loadKubeConfig({ kind: 'string', text })).constructor.name).to.equal(KubeConfig.name);
    expect((await loadKubeConfig({ kind: 'string', text: config(['server: https://h'], []) }, { reader: 'client-node' })).constructor.name).to.equal(KubeConfig.name);
  });
});
