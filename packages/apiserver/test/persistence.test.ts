import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@kubekit/core';
import { startChildServer } from './internal/childServer.js';
import { Client, createCRD, shirtCRD, shirts, start } from './internal/client.js';

describe('FilePersistence', function () {
  this.timeout(30_000);
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kubekit-data-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps CRDs, custom resources and the resourceVersion counter across a restart', async () => {
    const first = await start({ dataDir });
    await createCRD(first.server, first.client, shirtCRD());
    for (const s of shirts()) expect((await first.client.post('/apis/stable.example.com/v1/namespaces/default/shirts', s)).status).to.equal(201);
    const rv = first.server.resourceVersion;
    await first.server.close();

    const second = await start({ dataDir });
    try {
      expect(second.server.resourceVersion).to.equal(rv);
      const list = await second.client.get('/apis/stable.example.com/v1/namespaces/default/shirts?fieldSelector=spec.color%3Dblue');
      expect(list.status).to.equal(200);
      expect((list.body.items as KubeObject[]).map((i) => i.metadata.name)).to.deep.equal(['example1', 'example2']);
      const created = await second.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'after' } });
      expect(Number(created.body.metadata.resourceVersion)).to.equal(rv + 1);
    } finally {
      await second.server.close();
    }
  });

  it('ignores a torn last line of the log (a write that was never acknowledged)', async () => {
    const first = await start({ dataDir });
    expect((await first.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'kept' }, data: { a: 'b' } })).status).to.equal(201);
    // Simulate a crash in the middle of appending the next record: the file ends mid-line.
    const wal = readdirSync(dataDir).find((f) => f.startsWith('wal.'))!;
    await first.server.close();
    appendFileSync(join(dataDir, wal), '{"rv":999,"bucket":"/configmaps","key":"default/torn","object":{"metad');

    const second = await start({ dataDir });
    try {
      expect((await second.client.get('/api/v1/namespaces/default/configmaps/kept')).body.data).to.deep.equal({ a: 'b' });
      expect((await second.client.get('/api/v1/namespaces/default/configmaps/torn')).status).to.equal(404);
      expect(readFileSync(join(dataDir, 'snapshot.jsonl'), 'utf8')).to.contain('"kept"');
    } finally {
      await second.server.close();
    }
  });

  it('loses no acknowledged write when the server process is killed with SIGKILL mid-writes', async () => {
    const server = await startChildServer({ dataDir });
    const client = new Client(server.url);
    const acknowledged = new Map<string, string>();
    let killed = false;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; i < 1000 && !killed; i++) {
        const name = `cm-${w}-${i}`;
        try {
          const created = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name }, data: { v: '1' } });
          if (created.status !== 201) throw new Error(`create: ${created.status}`);
          acknowledged.set(name, '1');
          const updated = await client.put(`/api/v1/namespaces/default/configmaps/${name}`, { ...created.body, data: { v: '2' } });
          if (updated.status !== 200) throw new Error(`update: ${updated.status}`);
          acknowledged.set(name, '2');
        } catch (err) {
          if (killed) return; // in flight when the process died: not acknowledged
          throw err;
        }
        if (acknowledged.size >= 200 && !killed) {
          killed = true;
          await server.kill();
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    expect(killed).to.equal(true);

    const restarted = await startChildServer({ dataDir });
    try {
      const list = await new Client(restarted.url).get('/api/v1/namespaces/default/configmaps');
      const found = new Map((list.body.items as KubeObject[]).map((o) => [o.metadata.name!, (o.data as { v: string }).v]));
      for (const [name, v] of acknowledged) {
        expect(found.has(name), `${name} was acknowledged`).to.equal(true);
        expect(Number(found.get(name)), `${name} keeps its acknowledged update`).to.be.at.least(Number(v));
      }
    } finally {
      await restarted.stop();
    }
  });
});
