import { expect } from 'chai';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvtestError } from '../src/envtestError.js';
import { compareGoVersions, findGoToolchain, goModGoVersion, parseGoVersion } from '../src/internal/goToolchain.js';

describe('findGoToolchain', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'kubekit-go-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function fakeGo(output: string): string {
    const path = join(dir, `go-${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, `#!/bin/sh\necho '${output}'\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it('does parse Go versions as go.mod and `go version` write them', () => {
    expect(parseGoVersion('go1.26.8')).to.deep.equal([1, 26, 8]);
    expect(parseGoVersion('1.24')).to.deep.equal([1, 24, 0]);
    expect(parseGoVersion('go1.25rc1')).to.deep.equal([1, 25, 0]);
    expect(parseGoVersion('devel')).to.equal(undefined);
    expect(goModGoVersion('module x\n\ngo 1.24.0\n')).to.deep.equal([1, 24, 0]);
    expect(compareGoVersions([1, 24, 0], [1, 9, 9])).to.be.greaterThan(0);
  });

  it('does name what is needed when go is not on PATH', async () => {
    const err = await findGoToolchain(join(dir, 'no-such-go'), [1, 24, 0]).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(EnvtestError);
    expect((err as Error).message).to.match(/needs Go go1\.24\.0 or newer, but ".*no-such-go" was not found on PATH/);
  });

  it('does refuse a Go older than the go.mod needs, naming both versions', async () => {
    const err = await findGoToolchain(fakeGo('go version go1.21.3 linux/amd64'), [1, 24, 0]).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(EnvtestError);
    expect((err as Error).message).to.contain('needs Go go1.24.0 or newer').and.to.contain('is go1.21.3');
  });

  it('does accept a new enough Go', async () => {
    const go = await findGoToolchain(fakeGo('go version go1.26.8 linux/amd64'), [1, 24, 0]);
    expect(go.version).to.equal('go1.26.8');
  });
});
