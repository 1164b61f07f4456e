import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { childrenTimeoutMs, kubekitProcess } from './support/kubekit.js';

// Each child is tsx compiling the CLI's sources: seconds on an idle machine, and on a loaded one (a shake run saw
// the three-child test fail under load within mocha's default 20 s) only the child's own bound is meaningful.
describe('bin (the kubekit executable, as a child process)', () => {
  it('prints help and exits 0', async function () {
    this.timeout(childrenTimeoutMs(1));
    const result = await kubekitProcess(['--help']);
    expect(result.code).to.equal(0);
    expect(result.stdout).to.contain('Usage: kubekit [options] [command]');
  });

  it('exits 1 with the violations of invalid CRDs, without colour when piped', async function () {
    this.timeout(childrenTimeoutMs(1));
    const result = await kubekitProcess(['crd', 'validate', 'packages/cli/test/fixtures/docs-nonstructural.yaml']);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.contain('* spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root\n');
    expect(result.stdout).to.not.contain('\u001b[');
  });

  it('generates from TypeScript and checks for drift', async function () {
    this.timeout(childrenTimeoutMs(3));
    const out = mkdtempSync(join(tmpdir(), 'kubekit-bin-'));
    try {
      const written = await kubekitProcess(['crd', 'generate', 'packages/cli/test/fixtures/modules/shirt.ts', '--out', out]);
      expect(written.code).to.equal(0);
      const checked = await kubekitProcess(['crd', 'generate', 'packages/cli/test/fixtures/modules/shirt.ts', '--out', out, '--check']);
      expect([checked.code, checked.stderr]).to.deep.equal([0, '']);
      const usage = await kubekitProcess(['crd', 'generate']);
      expect(usage.code).to.equal(2);
      expect(usage.stderr).to.contain("error: missing required argument 'modules'");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
