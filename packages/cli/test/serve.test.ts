import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { exitCodes, runCli } from '@kubekit/cli';
import { kubekit, repoRoot } from './support/kubekit.js';

describe('serve', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubekit-serve-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the embedded API server with the given CRDs until stopped, and writes a kubeconfig', async () => {
    const controller = new AbortController();
    let stdout = '';
    let stderr = '';
    let announce: (url: string) => void = () => {};
    const listening = new Promise<string>((resolve) => {
      announce = resolve;
    });
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    const done = runCli(
      ['serve', '--kubeconfig-out', kubeconfig, '--crd', 'examples/shirts/crd/shirts.stable.example.com.yaml'],
      {
        cwd: repoRoot,
        env: {},
        signal: controller.signal,
        stdout: {
          write: (text: string) => {
            stdout += text;
            const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
            if (match !== null) announce(match[1]);
          },
        },
        stderr: { write: (text: string) => (stderr += text) },
      },
    );
    const url = await Promise.race([listening, done.then((code) => `exited ${code}: ${stderr}`)]);
    expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout).to.contain('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com created\n');
    expect(readFileSync(kubeconfig, 'utf8')).to.contain(`server: ${url}`);

    const response = await fetch(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shirts.stable.example.com`);
    expect(response.status).to.equal(200);
    const crd = (await response.json()) as { spec: { versions: { selectableFields?: unknown }[] } };
    expect(crd.spec.versions[0].selectableFields).to.deep.equal([{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }]);

    controller.abort();
    expect(await done).to.equal(0);
    expect(stderr).to.equal('');
  });

  it('exits 1 before serving when a CRD is invalid', async () => {
    const result = await kubekit(['serve', '--crd', 'docs-nonstructural.yaml']);
    expect(result.code).to.equal(exitCodes.failure);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.match(/^error: docs-nonstructural\.yaml: The CustomResourceDefinition "examples\.stable\.example\.com" is invalid:\n\* /);
  });

  it('refuses a port that is not a port number', async () => {
    const result = await kubekit(['serve', '--port', 'eighty']);
    expect(result).to.deep.equal({ code: exitCodes.usage, stdout: '', stderr: 'error: --port must be a port number, got "eighty"\n' });
  });
});
