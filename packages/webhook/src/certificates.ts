/**
 * Development certificates for a webhook, written to and read from files with the names cert-manager
 * and controller-runtime use. The generation itself is `@kubekit/core`'s `generateCertificates` (the
 * embedded API server's https uses it too).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCertificates, type CertificateOptions, type GeneratedCertificates } from '@kubekit/core';

export { generateCertificates };
export type { CertificateOptions };

/** A CA and the serving certificate and key it signed, PEM-encoded. */
export type WebhookCertificates = GeneratedCertificates;

/** File names {@link writeCertificates} uses: cert-manager's and controller-runtime's. */
export const certificateFileNames = { caCert: 'ca.crt', caKey: 'ca.key', cert: 'tls.crt', key: 'tls.key' } as const;

/** Where {@link writeCertificates} put the files. */
export interface CertificateFiles {
  caCertFile: string;
  caKeyFile: string;
  certFile: string;
  keyFile: string;
}

/**
 * Writes `ca.crt`, `ca.key`, `tls.crt` and `tls.key` into `dir` (created if missing; keys mode 0600).
 * The serving pair is written key first, so a server that reloads on change sees a matching pair last.
 */
export async function writeCertificates(dir: string, certs: WebhookCertificates): Promise<CertificateFiles> {
  await mkdir(dir, { recursive: true });
  const files: CertificateFiles = {
    caCertFile: join(dir, certificateFileNames.caCert),
    caKeyFile: join(dir, certificateFileNames.caKey),
    certFile: join(dir, certificateFileNames.cert),
    keyFile: join(dir, certificateFileNames.key),
  };
  await writeFile(files.caCertFile, certs.caCert);
  await writeFile(files.caKeyFile, certs.caKey, { mode: 0o600 });
  await writeFile(files.keyFile, certs.key, { mode: 0o600 });
  await writeFile(files.certFile, certs.cert);
  return files;
}

/** Reads what {@link writeCertificates} wrote (the CA key may be absent). */
export async function readCertificates(dir: string): Promise<Omit<WebhookCertificates, 'caKey'> & { caKey?: string }> {
  const read = (name: string): Promise<string> => readFile(join(dir, name), 'utf8');
  const [caCert, cert, key] = await Promise.all([read(certificateFileNames.caCert), read(certificateFileNames.cert), read(certificateFileNames.key)]);
  const caKey = await read(certificateFileNames.caKey).catch(() => undefined);
  return { caCert, cert, key, caBundle: Buffer.from(caCert, 'utf8').toString('base64'), ...(caKey === undefined ? {} : { caKey }) };
}
