// Issue 15, finding 5: the data directory under an attacker on the same machine, and damaged files.
import { expect } from 'chai';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirectoryError, startApiServer } from '@kubekit/apiserver';
import { start } from './internal/client.js';

const mode = (file: string): number => statSync(file).mode & 0o777;

describe('hostile input: the data directory', function () {
  this.timeout(30_000);
  let root: string;
  let dataDir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kubekit-hostile-'));
    dataDir = join(root, 'data');
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the directory 0700 and every file 0600, and tightens an existing directory and old files', async () => {
    const { server, client } = await start({ dataDir });
    expect((await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' } })).status).to.equal(201);
    await server.close();
    expect(mode(dataDir)).to.equal(0o700);
    for (const f of readdirSync(dataDir)) expect(mode(join(dataDir, f)), f).to.equal(0o600);

    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'snapshot.jsonl'), 0o644);
    const again = await start({ dataDir });
    await again.server.close();
    expect(mode(dataDir)).to.equal(0o700);
    for (const f of readdirSync(dataDir)) expect(mode(join(dataDir, f)), f).to.equal(0o600);
  });

  it('never writes through a symbolic link planted as the snapshot\'s temporary file', async () => {
    mkdirSync(dataDir, { mode: 0o700 });
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(dataDir, 'snapshot.jsonl.tmp'));
    const { server } = await start({ dataDir });
    await server.close();
    expect(readFileSync(victim, 'utf8')).to.equal('precious\n');
    expect(lstatSync(join(dataDir, 'snapshot.jsonl')).isSymbolicLink()).to.equal(false);
    expect(existsSync(join(dataDir, 'snapshot.jsonl.tmp'))).to.equal(false);
  });

  it('refuses to read a snapshot or write a log segment through a symbolic link', async () => {
    mkdirSync(dataDir, { mode: 0o700 });
    const victim = join(root, 'victim.jsonl');
    writeFileSync(victim, '{"rv":1}\n');
    symlinkSync(victim, join(dataDir, 'snapshot.jsonl'));
    const err = await startApiServer({ dataDir }).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(DataDirectoryError);
    expect((err as Error).message).to.include('snapshot.jsonl is a symbolic link');
    rmSync(join(dataDir, 'snapshot.jsonl'));

    // The first segment of a fresh directory is wal.<rv of the default namespaces>.log.
    const { server } = await start({ dataDir });
    await server.close();
    const segment = readdirSync(dataDir).find((f) => f.startsWith('wal.'))!;
    const snapshot = readFileSync(join(dataDir, 'snapshot.jsonl'), 'utf8');
    rmSync(join(dataDir, segment));
    symlinkSync(victim, join(dataDir, segment));
    writeFileSync(victim, '');
    writeFileSync(join(dataDir, 'snapshot.jsonl'), snapshot);
    const err2 = await startApiServer({ dataDir }).then(async (s) => { await s.close(); return undefined; }, (e: unknown) => e);
    // Either the link is refused on read, or the segment is replaced by a real file: the victim stays empty.
    expect(readFileSync(victim, 'utf8')).to.equal('');
    if (err2 !== undefined) expect(err2).to.be.instanceOf(DataDirectoryError);
  });

  for (const [what, content, line] of [
    ['an empty snapshot', '', 1],
    ['a truncated snapshot', '{"rv":5}\n{"rv":5,"bucket":"/namespaces","key":"default","object":{"metadata":{"na', 2],
    ['a snapshot with a bad record', '{"rv":5}\n{"rv":5,"bucket":"/namespaces"}\n', 2],
    ['a snapshot with a bad header', 'garbage\n', 1],
  ] as const) {
    it(`stops at ${what} with an error naming the file, the line and how to recover`, async () => {
      mkdirSync(dataDir, { mode: 0o700 });
      writeFileSync(join(dataDir, 'snapshot.jsonl'), content, { mode: 0o600 });
      const err = await startApiServer({ dataDir }).then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(DataDirectoryError);
      const e = err as DataDirectoryError;
      expect(e.file).to.equal(join(dataDir, 'snapshot.jsonl'));
      expect(e.line).to.equal(line);
      expect(e.message).to.include(`${join(dataDir, 'snapshot.jsonl')} is damaged at line ${line}`);
      expect(e.message).to.include('To recover, restore this file from a backup');
      expect(readFileSync(join(dataDir, 'snapshot.jsonl'), 'utf8')).to.equal(content);
    });
  }
});
