// Regression for issue #16: on Node 20, npm used to pick @kubernetes/client-node 2.0.1 for kubekit's peer
// range, whose undici 8 throws `Cannot read properties of undefined (reading 'bind')` while loading
// (it needs Node 22.19's zlib zstd). The peer range now admits ^1.4 only; if 2.x is forced anyway, or
// the peer is missing, loading says what to install instead of a bare TypeError.
import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import { importClientNode, nodeAtLeast } from '../../src/internal/clientNode.js';

describe('importClientNode', () => {
  it('names the supported client-node line when 2.x fails to load on Node 20', async () => {
    const undiciCrash = () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'bind')"));
    const err = await importClientNode(undiciCrash, 'v20.19.0').then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError);
    expect((err as KubeError).message).to.equal("@kubernetes/client-node failed to load on Node v20.19.0 (Cannot read properties of undefined (reading 'bind')): kubekit supports @kubernetes/client-node ^1.4 there; 2.x needs Node 22.19 or later");
    expect((err as KubeError).cause).to.be.instanceOf(TypeError);
  });

  it('passes other failures through unchanged on Node 22.19 and later', async () => {
    const boom = new TypeError('boom');
    const err = await importClientNode(() => Promise.reject(boom), 'v22.19.0').then(() => undefined, (e: unknown) => e);
    expect(err).to.equal(boom);
  });

  it('names the package to install when it is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package '@kubernetes/client-node' imported from /app/x.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const err = await importClientNode(() => Promise.reject(missing), 'v24.0.0').then(() => undefined, (e: unknown) => e);
    expect((err as KubeError).message).to.contain('npm install @kubernetes/client-node@^1.4');
  });

  it('loads the installed client-node', async () => {
    expect((await importClientNode()).KubeConfig).to.be.a('function');
  });

  it('compares Node versions by major and minor', () => {
    expect([nodeAtLeast('v20.19.5', 22, 19), nodeAtLeast('v22.18.0', 22, 19), nodeAtLeast('v22.19.0', 22, 19), nodeAtLeast('24.0.0', 22, 19)]).to.deep.equal([false, false, true, true]);
  });
});
