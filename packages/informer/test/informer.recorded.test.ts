// The informer against answers a real kube-apiserver gave: exchanges recorded once from @kubekit/envtest's
// server (KUBEKIT_RECORD=1 with Go on PATH rewrites fixtures/recorded/*.json) and replayed here by a local
// server, so machines without Go test the client against real lists, streaming lists (sendInitialEvents,
// the initial-events-end bookmark), watch events of objects entering and leaving a field selection, and a
// real 400 Status for an unsupported field label.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { KubeError, noopLogger, type KubeObject } from '@kubekit/core';
import { kubeconfigYAML } from '@kubekit/apiserver';
import { startReferenceApiServer, type ReferenceApiServer } from '@kubekit/envtest';
import { Informer } from '../src/informer.js';
import { loadKubeConfig } from '../src/kubeConfig.js';
import { EventLog } from './helpers/eventLog.js';
import { Kube } from './helpers/kube.js';
import { startRecordingProxy, startReplayServer, type Exchange } from './helpers/recorded.js';
import { until, untilAsync } from './helpers/until.js';

const dir = new URL('./fixtures/recorded/', import.meta.url);
const recording = process.env.KUBEKIT_RECORD === '1' && spawnSync(process.env.KUBEKIT_GO ?? 'go', ['version']).status === 0;

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [{
      name: 'v1', served: true, storage: true, selectableFields: [{ jsonPath: '.spec.color' }],
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'string' } } } } } },
    }],
  },
};
const shirts = '/apis/stable.example.com/v1/namespaces/default/shirts';
const shirt = (name: string, color: string) => ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name }, spec: { color, size: 'M' } });
const merge = 'application/merge-patch+json';

interface Recorded { exchanges: Exchange[] }

/** What each recording's informer must report, live and replayed. */
const expected = {
  selection: ['add default/a', 'synced', 'add default/c', 'delete default/a leftSelection', 'update default/c', 'add default/b', 'delete default/c deleted'],
};

/**
 * Events per object, in order: the informer promises order per object only (a departure's reason may be
 * looked up while other objects' events go ahead).
 */
function perObject(lines: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of lines) {
    const [verb, key, ...rest] = line.split(' ');
    if (key === undefined) continue;
    (out[key] ??= []).push([verb, ...rest].join(' '));
  }
  return out;
}

function load(name: string): Recorded | undefined {
  const file = new URL(`${name}.json`, dir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Recorded) : undefined;
}

async function informerOn(url: string, fieldSelector: string): Promise<{ informer: Informer; log: EventLog; errors: Error[]; stop: AbortController; run: Promise<void> }> {
  const kc = await loadKubeConfig({ kind: 'string', text: kubeconfigYAML({ server: url }) });
  const informer = new Informer(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'default', fieldSelector, logger: noopLogger });
  const log = new EventLog();
  const errors: Error[] = [];
  informer.addEventHandler(log.handlers());
  informer.on('error', (e) => errors.push(e));
  const stop = new AbortController();
  return { informer, log, errors, stop, run: informer.start(stop.signal) };
}

(recording ? describe : describe.skip)('recording informer exchanges from the real kube-apiserver', function () {
  this.timeout(30 * 60_000);
  let server: ReferenceApiServer;
  let kube: Kube;
  before(async () => {
    server = await startReferenceApiServer();
    kube = new Kube(server.url, { token: server.token, ca: server.ca });
    await kube.createCRD({ idle: () => Promise.resolve() }, crd);
    mkdirSync(dir, { recursive: true });
  });
  after(async () => { await server?.close(); });

  it('does record a field-selected informer seeing objects enter and leave the selection', async () => {
    const proxy = await startRecordingProxy(server);
    await kube.ok('POST', shirts, shirt('a', 'blue'));
    await kube.ok('POST', shirts, shirt('b', 'red'));
    const i = await informerOn(proxy.url, 'spec.color=blue');
    await i.informer.waitForSync();
    await kube.ok('POST', shirts, shirt('c', 'blue'));
    await kube.ok('PATCH', `${shirts}/a`, { spec: { color: 'red' } }, merge);
    await kube.ok('PATCH', `${shirts}/c`, { spec: { size: 'L' } }, merge);
    await kube.ok('PATCH', `${shirts}/b`, { spec: { color: 'blue' } }, merge);
    await kube.ok('DELETE', `${shirts}/c`);
    await until(() => i.log.lines.length >= expected.selection.length, 'every event', 60_000);
    await i.informer.idle();
    i.stop.abort();
    await i.run;
    await proxy.close();
    expect(perObject(i.log.lines)).to.deep.equal(perObject(expected.selection));
    writeFileSync(new URL('selection.json', dir), `${JSON.stringify({ exchanges: proxy.exchanges }, null, 1)}\n`);
  });

  it('does record a 400 for an unsupported field label', async () => {
    const proxy = await startRecordingProxy(server);
    const i = await informerOn(proxy.url, 'spec.size=M');
    await until(() => i.errors.length > 0, 'an error', 60_000);
    i.stop.abort();
    await i.run;
    await proxy.close();
    writeFileSync(new URL('unsupported-field-label.json', dir), `${JSON.stringify({ exchanges: proxy.exchanges.slice(0, 2) }, null, 1)}\n`);
  });
});

describe('Informer against recorded answers of the real kube-apiserver', function () {
  this.timeout(60_000);

  it('does deliver the recorded selection as the live informer saw it: a streaming list, then entering and leaving', async function () {
    const rec = load('selection');
    if (rec === undefined) this.skip();
    const replay = await startReplayServer(rec.exchanges);
    const i = await informerOn(replay.url, 'spec.color=blue');
    try {
      await until(() => i.log.lines.length >= expected.selection.length, 'every recorded event', 30_000);
      await i.informer.idle();
      // A request the recording lacks means the informer now asks differently: re-record (KUBEKIT_RECORD=1).
      expect(replay.unmatched, 'requests missing from the recording').to.deep.equal([]);
      expect(perObject(i.log.lines)).to.deep.equal(perObject(expected.selection));
      expect(i.log.lines.indexOf('synced')).to.equal(1);
      expect(i.log.violations).to.deep.equal([]);
      expect(i.informer.list().map((o: KubeObject) => o.metadata.name)).to.deep.equal(['b']);
      // The informer resumed its watch at the resourceVersion the real server's list (or bookmark) gave.
      expect(replay.served.some((k) => k.includes('watch='))).to.equal(true);
    } finally {
      i.stop.abort();
      await i.run;
      await replay.close();
    }
  });

  it('does surface the real 400 Status of an unsupported field label as a KubeError', async function () {
    const rec = load('unsupported-field-label');
    if (rec === undefined) this.skip();
    const replay = await startReplayServer(rec.exchanges);
    const i = await informerOn(replay.url, 'spec.size=M');
    try {
      await untilAsync(async () => i.errors.length > 0, 'an error', 30_000);
      expect(i.errors[0]).to.be.instanceOf(KubeError);
      expect(i.errors[0]).to.include({ code: 400, reason: 'BadRequest' });
      expect(i.errors[0].message).to.contain('field label not supported: spec.size');
      expect(i.informer.hasSynced()).to.equal(false);
    } finally {
      i.stop.abort();
      await i.run;
      await replay.close();
    }
  });
});
