// The packages are real npm packages: `npm pack` of each holds dist with types, its sources and LICENSE, and
// no tests. Installing them from a registry is test/registry.test.ts.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packages = readdirSync(join(root, 'packages')).filter((p) => existsSync(join(root, 'packages', p, 'package.json')));

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });
}

describe('npm packages', function () {
  this.timeout(240_000);
  let work: string;
  const tarballs = new Map<string, string>();
  const packedFiles = new Map<string, string[]>();

  before(() => {
    if (!existsSync(join(root, 'packages/core/dist/index.js'))) throw new Error('packages are not built: run `npm run build` first (npm test does)');
    work = mkdtempSync(join(tmpdir(), 'kubekit-pack-'));
    for (const p of packages) {
      const out = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], join(root, 'packages', p))) as { filename: string; files: { path: string }[] }[];
      tarballs.set(p, join(work, out[0].filename));
      packedFiles.set(p, out[0].files.map((f) => f.path));
    }
  });

  after(() => { if (work) rmSync(work, { recursive: true, force: true }); });

  it('packs dist with types, the sources its maps name, a LICENSE, and no tests', () => {
    for (const p of packages) {
      const list = packedFiles.get(p)!;
      expect(list, p).to.include('dist/index.js');
      expect(list, p).to.include('dist/index.d.ts');
      expect(list, p).to.include('LICENSE');
      expect(list.filter((f) => f.startsWith('test/') || f.endsWith('.tsbuildinfo')), p).to.deep.equal([]);
      // Every source and declaration map names files that are in the tarball (stack traces and
      // go-to-definition land on real files).
      const packed = new Set(list);
      for (const map of list.filter((f) => f.endsWith('.map'))) {
        const { sources } = JSON.parse(readFileSync(join(root, 'packages', p, map), 'utf8')) as { sources: string[] };
        for (const source of sources) expect(packed.has(posix.join(posix.dirname(map), source)), `${p}/${map} -> ${source}`).to.equal(true);
      }
    }
  });
});
