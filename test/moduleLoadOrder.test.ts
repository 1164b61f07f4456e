// Every module of every package's src/ loads on its own, whatever imports it first. An import cycle that
// reaches a class before its module has run throws at import: `class ReviewResourceType extends
// BuiltinResourceType` ran while builtinKinds.ts was still loading writeHandler.ts, reached from
// claimValidation.ts through objectMeta.ts and the pod modules, and 66 of the embedded server's modules threw
// `Cannot access 'BuiltinResourceType' before initialization` when imported first, until builtinKinds.ts stopped
// importing writeHandler.ts. The whole suite never saw it: another file always imported the package's index first.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..');

describe('package modules', function () {
  this.timeout(180_000);

  it('each loads on its own, in a fresh module cache', async () => {
    const script = join(repoRoot, 'test', 'support', 'loadEachModule.cjs');
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--require', 'tsx/cjs', '--conditions=kubekit-source', script], { cwd: repoRoot, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(stdout);
      });
    });
    const result = JSON.parse(out) as { loaded: number; failed: string[] };
    expect(result.failed).to.deep.equal([]);
    expect(result.loaded).to.be.greaterThan(350);
  });
});
