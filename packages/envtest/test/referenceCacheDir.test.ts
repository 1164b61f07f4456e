import { expect } from 'chai';
import { isAbsolute, join } from 'node:path';
import { referenceCacheDir } from '../src/buildReferenceApiServer.js';

describe('referenceCacheDir', () => {
  it('takes the option, else KUBEKIT_ENVTEST_DIR (an empty value counts as unset), else the package\'s .build, always absolute', () => {
    expect(referenceCacheDir('/tmp/x', { KUBEKIT_ENVTEST_DIR: '/tmp/y' })).to.equal('/tmp/x');
    expect(referenceCacheDir(undefined, { KUBEKIT_ENVTEST_DIR: '/tmp/y' })).to.equal('/tmp/y');
    // Regression: `KUBEKIT_ENVTEST_DIR=` named the relative folder '', and the build's rename failed (ENOENT).
    const fallback = referenceCacheDir(undefined, { KUBEKIT_ENVTEST_DIR: '' });
    expect(fallback.endsWith(join('envtest', '.build'))).to.equal(true);
    expect(referenceCacheDir(undefined, {})).to.equal(fallback);
    expect(referenceCacheDir('relative/dir', {})).to.equal(join(process.cwd(), 'relative', 'dir'));
    expect(isAbsolute(referenceCacheDir(undefined, { KUBEKIT_ENVTEST_DIR: 'rel' }))).to.equal(true);
  });
});
