import { expect } from 'chai';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCertificates, readCertificates, writeCertificates } from '@kubekit/webhook';

describe('writeCertificates', () => {
  it('writes ca.crt, ca.key, tls.crt, tls.key with private keys readable by the owner only, and reads them back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubekit-certs-'));
    try {
      const certs = generateCertificates();
      const files = await writeCertificates(join(dir, 'nested'), certs);
      expect((await stat(files.keyFile)).mode & 0o777).to.equal(0o600);
      expect((await stat(files.caKeyFile)).mode & 0o777).to.equal(0o600);
      expect(await readCertificates(join(dir, 'nested'))).to.deep.equal(certs);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
