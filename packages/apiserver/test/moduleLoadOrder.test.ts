// Every module of the embedded server loads on its own, whatever imports it first: an import cycle that reaches
// a class before its module has run (`class ReviewResourceType extends BuiltinResourceType` while builtinKinds.ts
// was still loading writeHandler.ts, reached from claimValidation.ts through objectMeta.ts and the pod
// modules) throws `Cannot access 'BuiltinResourceType' before initialization` at import. 66 of the modules
// failed so before builtinKinds.ts stopped importing writeHandler.ts; the whole suite never saw it, because
// another file always imported the package's index first.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

describe('apiserver modules', function () {
  this.timeout(180_000);

  it('each loads on its own, in a fresh module cache', async () => {
    const script = join(repoRoot, 'packages', 'apiserver', 'test', 'internal', 'loadEachModule.cjs');
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--require', 'tsx/cjs', '--conditions=kubekit-source', script], { cwd: repoRoot, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(stdout);
      });
    });
    const result = JSON.parse(out) as { loaded: number; failed: string[] };
    expect(result.failed).to.deep.equal([]);
    expect(result.loaded).to.be.greaterThan(100);
  });
});
