import { expect } from 'chai';
import { SharedInformerFactory } from '../src/sharedInformerFactory.js';
import { noopLogger } from '@kubekit/core';
import { EventLog } from './helpers/eventLog.js';
import { FakeApiServer, apiVersion, plural, type Shirt } from './helpers/fakeApiServer.js';
import { until } from './helpers/until.js';

function shirt(name: string, color: string): Shirt {
  return { metadata: { name, namespace: 'default', labels: { app: 'shop', tier: 'web' } }, spec: { color } };
}

describe('SharedInformerFactory', () => {
  let server: FakeApiServer;
  let stop: AbortController;

  beforeEach(async () => {
    server = await new FakeApiServer().start();
    stop = new AbortController();
  });

  afterEach(async () => {
    stop.abort();
    await server.close();
  });

  it('does share one informer per resource, namespace and canonical selectors', () => {
    const factory = new SharedInformerFactory(server.kubeConfig(), { logger: noopLogger });
    const a = factory.informer<Shirt>({ apiVersion, plural, fieldSelector: 'spec.size=M,spec.color=blue', labelSelector: 'tier=web,app=shop' });
    const b = factory.informer<Shirt>({ apiVersion, plural, fieldSelector: 'spec.color==blue,spec.size=M', labelSelector: { app: 'shop', tier: 'web' } });
    const c = factory.informer<Shirt>({ apiVersion, plural, fieldSelector: 'spec.color=red' });
    const d = factory.informer<Shirt>({ apiVersion, plural, fieldSelector: 'spec.color=red', namespace: 'other' });
    expect(b).to.equal(a);
    expect(c).to.not.equal(a);
    expect(d).to.not.equal(c);
    expect(factory.size).to.equal(3);
  });

  it('does run one watch per informer however many consumers, and replay the state to late ones', async () => {
    server.create(shirt('a', 'blue'));
    server.create(shirt('b', 'red'));
    const factory = new SharedInformerFactory(server.kubeConfig(), { logger: noopLogger, streamingList: 'never' });
    const first = new EventLog<Shirt>();
    factory.informer<Shirt>({ apiVersion, plural, fieldSelector: 'spec.color=blue' }).addEventHandler(first.handlers());
    const done = factory.start(stop.signal);
    await factory.waitForSync();
    // A consumer arriving after sync shares the informer and starts from the current state.
    const late = new EventLog<Shirt>();
    const blue = factory.informer<Shirt>({ apiVersion, plural, fieldSelector: 'spec.color=blue' });
    const reg = blue.addEventHandler(late.handlers());
    await reg.idle();
    expect(late.lines).to.deep.equal(['add default/a', 'synced']);
    // An informer requested while the factory runs starts at once.
    const red = factory.informer<Shirt>({ apiVersion, plural, fieldSelector: 'spec.color=red' });
    await red.waitForSync();
    expect(red.keys()).to.deep.equal(['default/b']);
    await until(() => server.watchers.size === 2, 'two watches');
    expect(server.requests.filter((r) => r.query.has('watch'))).to.have.length(2);
    server.create(shirt('c', 'blue'));
    await until(() => blue.size === 2, 'c');
    await blue.idle();
    expect(first.lines.at(-1)).to.equal('add default/c');
    expect(late.lines.at(-1)).to.equal('add default/c');
    stop.abort();
    await done;
    expect(blue.status.phase).to.equal('stopped');
    expect(red.status.phase).to.equal('stopped');
  });
});
