// Regression for issue #16: the CLI depended on @kubekit/apiserver, so a project that only generates CRDs
// installed the embedded server too. It is an optional peer now; `kubekit serve` without it says how to add it.
import { expect } from 'chai';
import { exitCodes } from '../../src/exitCodes.js';
import { CommandError } from '../../src/internal/context.js';
import { loadApiServer } from '../../src/internal/loadApiServer.js';

describe('loadApiServer', () => {
  it('names the install command when @kubekit/apiserver is not installed', async () => {
    const missing = Object.assign(new Error("Cannot find package '@kubekit/apiserver' imported from /app/node_modules/@kubekit/cli/dist/commands/serve.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const err = await loadApiServer(() => Promise.reject(missing)).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(CommandError);
    expect((err as CommandError).message).to.equal('kubekit serve runs the embedded API server from @kubekit/apiserver, which is not installed: npm install --save-dev @kubekit/apiserver');
    expect((err as CommandError).exitCode).to.equal(exitCodes.usage);
  });

  it('passes other load failures through', async () => {
    const boom = new SyntaxError('boom');
    expect(await loadApiServer(() => Promise.reject(boom)).then(() => undefined, (e: unknown) => e)).to.equal(boom);
  });

  it('loads the installed server', async () => {
    expect((await loadApiServer()).startApiServer).to.be.a('function');
  });
});
