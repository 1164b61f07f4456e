import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain ESM script without types
import { renderGoMod } from '../scripts/gen-gomod.mjs';

const render = renderGoMod as (version: string, upstream: string) => string;

describe('gen-gomod', () => {
  const upstream = [
    'module k8s.io/kubernetes', '', 'go 1.24.0', '', 'require (',
    '\tgo.etcd.io/etcd/server/v3 v3.6.4 // indirect', '\tk8s.io/api v0.0.0', ')', '',
    'replace (', '\tk8s.io/api => ./staging/src/k8s.io/api', '\tk8s.io/apiserver => ./staging/src/k8s.io/apiserver', ')', '',
  ].join('\n');

  it('does map every staging module to the matching v0 release and pin etcd as k8s.io/kubernetes does', () => {
    const out = render('v1.34.4', upstream);
    expect(out).to.contain('go 1.24.0');
    expect(out).to.contain('\tgo.etcd.io/etcd/server/v3 v3.6.4\n');
    expect(out).to.contain('\tk8s.io/kubernetes v1.34.4\n');
    expect(out).to.contain('\tk8s.io/api => k8s.io/api v0.34.4\n');
    expect(out).to.contain('\tk8s.io/apiserver => k8s.io/apiserver v0.34.4\n');
  });

  it('does refuse a version that is not a release', () => {
    expect(() => render('1.34', upstream)).to.throw('must look like v1.34.4');
  });

  it('does agree with the shipped go.mod: one replace per staging module of k8s.io/kubernetes v1.34.4', () => {
    const shipped = readFileSync(new URL('../go/go.mod', import.meta.url), 'utf8');
    const replaces = shipped.split('\n').filter((l) => / => k8s\.io\/[\w-]+ v0\.34\.4$/.test(l));
    expect(replaces.length).to.be.greaterThan(25);
    expect(shipped).to.match(/\tk8s\.io\/kubernetes v1\.34\.4\n/);
  });

  it('does download through the go command it is given (the option or KUBEKIT_GO), not whatever go is on PATH', () => {
    // Regression: buildReferenceApiServer({ go }) and KUBEKIT_GO were ignored here, so another version
    // needed a go on PATH too. The stand-in go answers `go mod download -json` with a go.mod of its own.
    const dir = mkdtempSync(join(tmpdir(), 'kubekit-gen-gomod-'));
    try {
      writeFileSync(join(dir, 'upstream.mod'), upstream.replace('v3.6.4', 'v3.6.99'));
      const fakeGo = join(dir, 'fake-go');
      writeFileSync(fakeGo, `#!/bin/sh\necho '{"Path":"k8s.io/kubernetes","GoMod":"${join(dir, 'upstream.mod')}"}'\n`);
      chmodSync(fakeGo, 0o755);
      const script = fileURLToPath(new URL('../scripts/gen-gomod.mjs', import.meta.url));
      // GOPROXY=off: a real go, if it were run instead, could not fetch anything.
      const env = { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' };
      execFileSync(process.execPath, [script, 'v1.34.4', join(dir, 'a'), fakeGo], { env, stdio: 'pipe' });
      expect(readFileSync(join(dir, 'a', 'go.mod'), 'utf8')).to.contain('\tgo.etcd.io/etcd/server/v3 v3.6.99\n');
      execFileSync(process.execPath, [script, 'v1.34.4', join(dir, 'b')], { env: { ...env, KUBEKIT_GO: fakeGo }, stdio: 'pipe' });
      expect(readFileSync(join(dir, 'b', 'go.mod'), 'utf8')).to.contain('\tgo.etcd.io/etcd/server/v3 v3.6.99\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
