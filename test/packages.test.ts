// Every workspace package under packages/* (including ones added later) is shaped to be installed by
// strangers from a registry: the root LICENSE, sources shipped for the source maps, the root's Node
// engines, and peer ranges that admit only what loads on every Node version the engines admit.
import { expect } from 'chai';
import { accessSync, constants, existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';

const root = resolve(import.meta.dirname, '..');
const packages = readdirSync(join(root, 'packages')).filter((p) => existsSync(join(root, 'packages', p, 'package.json'))).sort();
const manifest = (p: string): Record<string, unknown> & { engines?: { node?: string }; peerDependencies?: Record<string, string>; files?: string[]; license?: string } =>
  JSON.parse(readFileSync(join(root, 'packages', p, 'package.json'), 'utf8'));
const rootEngines = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/**
 * The oldest Node each peer's releases need, where the package does not say so itself (npm picks
 * versions by their own `engines` only). @kubernetes/client-node 2.x depends on undici 8, which declares
 * node >=22.19 and throws at import on Node 20 (`createZstdDecompress.bind`).
 */
const peerNodeFloors: Record<string, { range: string; node: string }[]> = {
  '@kubernetes/client-node': [{ range: '>=2.0.0-0', node: '22.19.0' }],
};

describe('workspace packages', () => {
  it('carry the root LICENSE (npm run build copies it into each)', () => {
    const license = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(license).to.match(/^\s+Apache License\s+Version 2\.0, January 2004/);
    for (const p of packages) {
      expect(manifest(p).license, p).to.equal('Apache-2.0');
      expect(existsSync(join(root, 'packages', p, 'LICENSE')), `packages/${p}/LICENSE`).to.equal(true);
      expect(readFileSync(join(root, 'packages', p, 'LICENSE'), 'utf8') === license, `packages/${p}/LICENSE equals the root's`).to.equal(true);
    }
  });

  it('ship src/ next to dist/ so source and declaration maps resolve', () => {
    for (const p of packages) expect(manifest(p).files, p).to.include.members(['dist', 'src']);
  });

  it('declare the root\'s Node engines', () => {
    for (const p of packages) expect(manifest(p).engines?.node, p).to.equal(rootEngines);
  });

  it('admit only peer versions that load on every Node version the engines admit', () => {
    const oldestNode = semver.minVersion(rootEngines)!.version;
    for (const p of packages) {
      for (const [peer, range] of Object.entries(manifest(p).peerDependencies ?? {})) {
        for (const floor of peerNodeFloors[peer] ?? []) {
          if (semver.gte(oldestNode, floor.node)) continue;
          expect(semver.intersects(range, floor.range), `${p}: peer ${peer}@${range} admits ${floor.range}, which needs Node ${floor.node}, but engines admit Node ${oldestNode}`).to.equal(false);
        }
      }
    }
  });

  it('checks the rule it enforces: the old range would have been refused', () => {
    expect(semver.intersects('^1.4.0 || ^2.0.0', '>=2.0.0-0')).to.equal(true);
    expect(semver.intersects('^1.4.0', '>=2.0.0-0')).to.equal(false);
  });

  it('have their bins executable and linked after npm run build (npx kubekit in a fresh clone)', function () {
    if (!existsSync(join(root, 'packages/cli/dist/bin.js'))) this.skip(); // mocha straight from sources, nothing built
    for (const p of packages) {
      const bin = (manifest(p) as { bin?: Record<string, string> }).bin ?? {};
      for (const [command, file] of Object.entries(bin)) {
        expect(existsSync(join(root, 'packages', p, file)), `@kubekit/${p}'s bin ${command} names ${file}, which must exist after the build (and be packed)`).to.equal(true);
        const link = join(root, 'node_modules/.bin', command);
        expect(realpathSync(link), `node_modules/.bin/${command}`).to.equal(realpathSync(join(root, 'packages', p, file)));
        accessSync(link, constants.X_OK);
      }
    }
  });
});
