// kubekit as a stranger gets it: every package released with `npm run release` (lerna version + lerna
// publish from-package) to a real npm registry (verdaccio on 127.0.0.1, storage in a temp dir), then a
// fresh project installs ONLY @kubekit/decorators, informer, controller and cli with a plain
// `npm install` (no overrides; npm picks the peers), compiles a decorated operator with tsc (NodeNext and
// Bundler), generates its CRD with `npx kubekit crd generate`, and runs it against `npx kubekit serve`.
// Third-party packages come through the registry's uplink (npm's configured registry).
import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalRegistry, type LocalRegistry } from './support/localRegistry.js';

const root = resolve(import.meta.dirname, '..');
const packages = readdirSync(join(root, 'packages')).filter((p) => existsSync(join(root, 'packages', p, 'package.json'))).sort();
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const releaseVersion = '0.1.1';

interface Run { code: number; stdout: string; stderr: string }

/** The environment of every npm call: npm's own lifecycle variables removed, the registry set by .npmrc. */
function npmEnv(npmrc: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return {
    ...env, npm_config_userconfig: npmrc, npm_config_loglevel: 'error', npm_config_audit: 'false', npm_config_fund: 'false',
    npm_config_update_notifier: 'false', GIT_AUTHOR_NAME: 'kubekit test', GIT_AUTHOR_EMAIL: 'test@kubekit.invalid',
    GIT_COMMITTER_NAME: 'kubekit test', GIT_COMMITTER_EMAIL: 'test@kubekit.invalid',
  };
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<Run> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

async function ok(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs?: number): Promise<string> {
  const t0 = Date.now();
  const r = await run(cmd, args, cwd, env, timeoutMs);
  if (process.env.KUBEKIT_TEST_TIMINGS) console.log(`      ${((Date.now() - t0) / 1000).toFixed(1)} s  ${[cmd, ...args].join(' ').slice(0, 110)}`);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const shirtSource = `import { CustomResource, CustomResourceObject, Field, PrinterColumn, Selectable } from '@kubekit/decorators';

export class ShirtSpec {
  @Selectable() @PrinterColumn() @Field({ type: 'string', enum: ['red', 'green', 'blue'] }) color?: Selectable<string>;
  @Selectable() @PrinterColumn() @Field({ type: 'string', default: 'M' }) size?: Selectable<string>;
}

export class ShirtStatus {
  @Field({ type: 'string' }) phase?: string;
}

@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt', subresources: { status: true } })
export class Shirt extends CustomResourceObject {
  @Field(() => ShirtSpec) spec?: ShirtSpec;
  @Field(() => ShirtStatus) status?: ShirtStatus;
}
`;

const operatorSource = `import { Controller, Manager, generationChangedPredicate, updateStatus } from '@kubekit/controller';
import { fieldSelector, type KubeObjectOf } from '@kubekit/decorators';
import { Informer, KubeClient, loadKubeConfig } from '@kubekit/informer';
import { Shirt } from './shirt.js';

type ShirtObject = KubeObjectOf<typeof Shirt>;

const kc = await loadKubeConfig({ kind: 'file', path: process.argv[2] });
const shirts = new KubeClient(kc).resource<ShirtObject>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
const blue = new Informer<ShirtObject>(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', fieldSelector: fieldSelector(Shirt, { 'spec.color': 'blue' }) });
const controller = new Controller({
  name: 'blue-shirts',
  reconciler: async ({ namespace, name }) => {
    if (blue.getByName(name, namespace)) await updateStatus(shirts, namespace, name, (s) => { s.status = { phase: 'Selected' }; });
  },
}).for(blue, generationChangedPredicate);

const ac = new AbortController();
const deadline = setTimeout(() => { console.error('no reconcile within 60 s'); process.exit(1); }, 60_000);
blue.on('update', (shirt) => {
  if (shirt.status?.phase === 'Selected') { console.log(\`\${shirt.metadata.name} \${shirt.spec?.size} \${shirt.status.phase}\`); ac.abort(); }
});
const running = new Manager().add(blue, { leaderElection: false }).add(controller).start(ac.signal);
await shirts.create({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'example1', namespace: 'default' }, spec: { color: 'blue' } });
await running;
clearTimeout(deadline);
`;

describe('the packages from a registry', function () {
  this.timeout(600_000);
  let work: string;
  let registry: LocalRegistry | undefined;
  let env: NodeJS.ProcessEnv;

  before(async function () {
    this.timeout(120_000);
    if (!existsSync(join(root, 'packages/core/dist/index.js'))) throw new Error('packages are not built: run `npm run build` first (npm test does)');
    work = mkdtempSync(join(tmpdir(), 'kubekit-registry-'));
    const uplink = (await ok('npm', ['config', 'get', 'registry'], work, npmEnv(join(work, 'none')))).trim();
    registry = await startLocalRegistry(join(work, 'registry'), uplink);
    writeFileSync(join(work, '.npmrc'), registry.npmrc);
    env = npmEnv(join(work, '.npmrc'));
  });

  after(async () => {
    await registry?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('releases every package with npm run release, which insists on release notes first', async () => {
    // A git repository holding the workspace as it is (built), for lerna version to commit and tag in.
    const repo = join(work, 'repo');
    mkdirSync(repo);
    for (const f of ['package.json', 'package-lock.json', 'lerna.json', 'tsconfig.json', 'tsconfig.base.json', 'CHANGELOG.md', 'LICENSE', 'scripts']) {
      cpSync(join(root, f), join(repo, f), { recursive: true, preserveTimestamps: true });
    }
    for (const p of packages) {
      cpSync(join(root, 'packages', p), join(repo, 'packages', p), { recursive: true, preserveTimestamps: true, filter: (src) => !/[\\/](?:node_modules|\.build|\.bin)(?:[\\/]|$)/.test(src) });
    }
    symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules'));
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\ndist/\n*.tsbuildinfo\n');
    await ok('git', ['init', '-q', '-b', 'main'], repo, env);
    await ok('git', ['add', '-A'], repo, env);
    await ok('git', ['commit', '-qm', 'kubekit'], repo, env);

    const refused = await run('npm', ['run', 'release', '--', releaseVersion, '--no-push'], repo, env);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.contain(`release: CHANGELOG.md has no "## ${releaseVersion}" section: write the release notes first`);

    writeFileSync(join(repo, 'CHANGELOG.md'), readFileSync(join(repo, 'CHANGELOG.md'), 'utf8').replace('## Unreleased', `## ${releaseVersion}`));
    await ok('git', ['commit', '-qam', 'release notes'], repo, env);
    await ok('npm', ['run', 'release', '--', releaseVersion, '--no-push'], repo, env, 400_000);

    expect((await ok('git', ['tag'], repo, env)).trim()).to.equal(`v${releaseVersion}`);
    for (const p of packages) {
      const res = await fetch(`${registry!.url}@kubekit%2f${p}`);
      expect(res.status, `@kubekit/${p} in the registry`).to.equal(200);
      const doc = (await res.json()) as { 'dist-tags': { latest: string }; versions: Record<string, { peerDependencies?: Record<string, string>; dependencies?: Record<string, string> }> };
      expect(doc['dist-tags'].latest, p).to.equal(releaseVersion);
      const manifest = doc.versions[releaseVersion];
      for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        if (name.startsWith('@kubekit/')) expect(range, `${p} -> ${name}`).to.equal(releaseVersion);
      }
    }
  });

  it('installs only decorators, informer, controller and cli, builds an operator and runs it against kubekit serve', async function () {
    if (registry === undefined) this.skip();
    const app = join(work, 'app');
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'shirt-operator', private: true, type: 'module' }, null, 2));
    await ok('npm', ['install', '@kubekit/decorators', '@kubekit/informer', '@kubekit/controller', '@kubekit/cli'], app, env, 400_000);
    const installed = (name: string): string | undefined => {
      const file = join(app, 'node_modules', name, 'package.json');
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
    };
    expect(installed('@kubekit/cli')).to.equal(releaseVersion);
    expect(installed('@kubekit/apiserver'), 'the embedded server is not installed').to.equal(undefined);
    const clientNode = installed('@kubernetes/client-node');
    expect(clientNode, 'npm installs the peer @kubernetes/client-node').to.match(/^1\./);

    writeFileSync(join(app, 'src/shirt.ts'), shirtSource);
    writeFileSync(join(app, 'src/operator.ts'), operatorSource);
    await ok('npx', ['kubekit', 'crd', 'generate', 'src/shirt.ts', '--out', 'crd'], app, env);
    const crdFile = join(app, 'crd/shirts.stable.example.com.yaml');
    expect(readFileSync(crdFile, 'utf8')).to.contain('selectableFields:');

    const withoutServer = await run('npx', ['kubekit', 'serve'], app, env);
    expect(withoutServer.code).to.equal(2);
    expect(withoutServer.stderr).to.contain('npm install --save-dev @kubekit/apiserver');
    // The test-only packages together (@kubekit/envtest is a dependency of no other package, so nothing
    // else would install, import or type-check it from the registry).
    await ok('npm', ['install', '--save-dev', '@kubekit/apiserver', '@kubekit/envtest'], app, env, 400_000);
    expect(installed('@kubekit/apiserver')).to.equal(releaseVersion);
    expect(installed('@kubekit/envtest')).to.equal(releaseVersion);

    // Compiled with tsc as the user would, together with a module importing every @kubekit package that
    // came along (each imports as ESM and type-checks with both resolutions, declaration files included).
    const present = packages.filter((p) => installed(`@kubekit/${p}`) !== undefined);
    // Every package: what test/pack.test.ts once installed from tarballs and imported is covered here.
    expect(present).to.deep.equal(packages);
    const imports = present.map((p, i) => `import * as m${i} from '@kubekit/${p}';`).join('\n');
    writeFileSync(join(app, 'src/all.ts'), `${imports}\nexport const all: unknown[] = [${present.map((_, i) => `m${i}`).join(', ')}];\n`);
    const common = ['--strict', '--skipLibCheck', 'false', '--target', 'ES2022', '--lib', 'ES2023,esnext.decorators', '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), 'src/shirt.ts', 'src/operator.ts', 'src/all.ts'];
    await ok(process.execPath, [tsc, '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--outDir', 'dist', '--sourceMap', ...common], app, env);
    await ok(process.execPath, [tsc, '--module', 'ESNext', '--moduleResolution', 'Bundler', '--noEmit', ...common], app, env);
    const counts = JSON.parse(await ok(process.execPath, ['--input-type=module', '-e', 'const all = (await import("./dist/all.js")).all; console.log(JSON.stringify(all.map((m) => Object.keys(m).length)));'], app, env)) as number[];
    expect(counts.length).to.equal(present.length);
    expect(counts.every((n) => n > 0)).to.equal(true);

    // A stack trace through a package names its shipped TypeScript source.
    const stack = await ok(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', 'import { parseFieldSelector } from "@kubekit/selectors"; try { parseFieldSelector("a~b"); } catch (e) { console.log(e.stack); }'], app, env);
    const frames = [...stack.matchAll(/\((\/[^)]+?\.ts):\d+:\d+\)/g)].map((m) => m[1]);
    expect(frames.length, stack).to.be.greaterThan(0);
    for (const frame of frames) expect(existsSync(frame), frame).to.equal(true);

    const serve = spawn('npx', ['kubekit', 'serve', '--crd', 'crd/shirts.stable.example.com.yaml', '--kubeconfig-out', 'kubeconfig.yaml'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let served = '';
    try {
      await new Promise<void>((resolveListening, reject) => {
        const timer = setTimeout(() => reject(new Error(`kubekit serve did not start within 60 s: ${served}`)), 60_000);
        serve.stdout.on('data', (d: Buffer) => { served += d.toString(); if (served.includes('listening on')) { clearTimeout(timer); resolveListening(); } });
        serve.stderr.on('data', (d: Buffer) => { served += d.toString(); });
        serve.on('exit', (code) => { clearTimeout(timer); reject(new Error(`kubekit serve exited ${code}: ${served}`)); });
      });
      expect(served).to.contain('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com created');
      const operator = await run(process.execPath, ['--enable-source-maps', 'dist/operator.js', 'kubeconfig.yaml'], app, env, 90_000);
      expect(operator.stderr).to.equal('');
      expect(operator.stdout).to.equal('example1 M Selected\n');
    } finally {
      const exited = new Promise((r) => serve.once('exit', r));
      if (serve.exitCode === null && serve.pid !== undefined) process.kill(-serve.pid, 'SIGTERM');
      await exited;
    }
  });
});
