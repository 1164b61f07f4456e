// A real kubectl (scripts/fetch-kubectl.mjs) walks the docs page "Extend the Kubernetes API with
// CustomResourceDefinitions", section "Field selectors", against kubekit's embedded server and against the
// real kube-apiserver (@kubekit/envtest): every command must print the same thing on both. Without Go the
// real server's recorded outputs (fixtures/kubectl-shirts.reference.json) stand in for it.
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { referenceAvailable, startKubekit, startReference, type Backend } from '../differential/backends.js';

const root = resolve(import.meta.dirname, '..', '..');
const fixtures = join(root, 'packages', 'apiserver', 'test', 'fixtures');
const recordedFile = join(import.meta.dirname, 'fixtures', 'kubectl-shirts.reference.json');

interface Run { code: number; stdout: string; stderr: string }

/** The walk: the docs page's commands, in order (`{dir}` is the scratch directory). */
const walk: { name: string; args: string[]; settle?: boolean }[] = [
  { name: 'apply the Shirt CRD', args: ['apply', '-f', join(fixtures, 'shirt-resource-definition.yaml')] },
  { name: 'wait until it is established', args: ['wait', '--for=condition=established', '--timeout=60s', 'crd/shirts.stable.example.com'], settle: true },
  { name: 'apply the three shirts', args: ['apply', '-f', join(fixtures, 'shirt-resources.yaml')] },
  { name: 'get shirts', args: ['get', 'shirts.stable.example.com'] },
  { name: 'select spec.color=blue', args: ['get', 'shirts.stable.example.com', '--field-selector', 'spec.color=blue'] },
  { name: 'select spec.color=green,spec.size=M', args: ['get', 'shirts.stable.example.com', '--field-selector', 'spec.color=green,spec.size=M'] },
  { name: 'select spec.color!=blue', args: ['get', 'shirts.stable.example.com', '--field-selector', 'spec.color!=blue'] },
  { name: 'misspelt field label', args: ['get', 'shirts.stable.example.com', '--field-selector', 'spec.colour=blue'] },
  { name: 'get one shirt as YAML', args: ['get', 'shirt', 'example1', '-o', 'jsonpath={.spec}'] },
  { name: 'explain shirts.spec', args: ['explain', 'shirts.spec'] },
  { name: 're-apply (unchanged)', args: ['apply', '-f', join(fixtures, 'shirt-resources.yaml')] },
  { name: 'label a shirt', args: ['label', 'shirt', 'example3', 'tier=gold'] },
  { name: 'select by label and field', args: ['get', 'shirts', '-l', 'tier=gold', '--field-selector', 'spec.size=M', '-o', 'name'] },
  // A request target beyond Node's default 16 KiB of request line and headers (the apiserver serves 1 MiB).
  { name: 'select by a label in 3,000 values', args: ['get', 'shirts', '-l', `tier in (${Array.from({ length: 3000 }, (_, i) => (i === 1234 ? 'gold' : `t${i}`)).join(',')})`, '-o', 'name'] },
  // client-go sends the timeout as `?timeout=5s`, the request's deadline.
  { name: 'get with a request timeout', args: ['get', 'shirts', '--field-selector', 'spec.color=blue', '--request-timeout=5s', '-o', 'name'] },
  { name: 'delete all, as a server dry run', args: ['delete', 'shirts', '--all', '--dry-run=server'] },
  { name: 'delete a shirt', args: ['delete', 'shirt', 'example2'] },
  { name: 'names left', args: ['get', 'shirts', '-o', 'name'] },
  { name: 'delete the CRD', args: ['delete', '-f', join(fixtures, 'shirt-resource-definition.yaml')] },
];

function obtainKubectl(): string | undefined {
  try {
    return execFileSync(process.execPath, [join(root, 'scripts', 'fetch-kubectl.mjs'), '--quiet'], { encoding: 'utf8', timeout: 280_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    console.log(`      kubectl walk SKIPPED: kubectl could not be obtained (${String((err as { stderr?: string }).stderr ?? err).trim().split('\n').pop()})`);
    return undefined;
  }
}

const normalize = (r: Run): Run => ({ ...r, stdout: r.stdout.replace(/\b\d+(s|m\d*s?)\b/g, '<age>') });

async function runWalk(kubectlPath: string, backend: Backend): Promise<Run[]> {
  const dir = mkdtempSync(join(tmpdir(), `kubekit-kubectl-${backend.name}-`));
  writeFileSync(join(dir, 'kubeconfig'), backend.kubeconfig);
  const kubectl = (args: string[]): Promise<Run> => new Promise((done) => {
    execFile(kubectlPath, [`--kubeconfig=${join(dir, 'kubeconfig')}`, `--cache-dir=${join(dir, 'cache')}`, ...args], {
      env: { HOME: dir, PATH: process.env.PATH ?? '' }, timeout: 90_000, encoding: 'utf8',
    }, (err, stdout, stderr) => done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }));
  });
  try {
    const out: Run[] = [];
    for (const step of walk) {
      let r = await kubectl(step.args);
      if (step.settle) {
        // The real server takes a moment to serve a new CRD's discovery; kubectl's first look may miss it.
        for (let i = 0; i < 50 && r.code !== 0; i++) { await new Promise((res) => setTimeout(res, 200)); r = await kubectl(step.args); }
      }
      out.push(normalize(r));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a real kubectl walks the docs\' Shirt page on both backends', function () {
  this.timeout(30 * 60_000);
  const live = referenceAvailable();
  let kubekit: Run[];
  let reference: Run[] | undefined;

  before(async function () {
    const kubectlPath = obtainKubectl();
    if (kubectlPath === undefined) this.skip();
    const k = await startKubekit();
    try { kubekit = await runWalk(kubectlPath, k); } finally { await k.close(); }
    if (live) {
      const r = await startReference();
      try { reference = await runWalk(kubectlPath, r); } finally { await r.close(); }
      if (process.env.KUBEKIT_DIFFERENTIAL_RECORD === '1') writeFileSync(recordedFile, `${JSON.stringify(reference, null, 1)}\n`);
    } else if (existsSync(recordedFile)) {
      reference = JSON.parse(readFileSync(recordedFile, 'utf8')) as Run[];
    }
    if (reference === undefined) this.skip();
  });

  walk.forEach((step, i) => {
    it(`does print the same for: kubectl ${step.name}`, () => {
      expect(kubekit[i], `kubekit: kubectl ${step.args.join(' ')}`).to.deep.equal(reference![i]);
    });
  });
});
