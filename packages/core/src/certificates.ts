/**
 * Development certificates: a self-signed CA and a serving certificate it signs, for `127.0.0.1` and
 * `localhost` by default, as an apiserver needs to call a webhook over https with the CA as
 * `caBundle` (it checks the serving certificate's subjectAltName, not its common name), and as the
 * embedded API server serves https with the CA in its kubeconfig. Made with `node:crypto` only.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { bitString, booleanTrue, explicit, integer, namedBits, octetString, oid, sequence, set, time, tlv, utf8String } from './internal/der.js';

/** Options of {@link generateCertificates}. */
export interface CertificateOptions {
  /** DNS names and IP addresses the serving certificate is valid for. @defaultValue `['127.0.0.1', 'localhost']` */
  hosts?: readonly string[];
  /** Validity of both certificates, from now. @defaultValue 365 days */
  validityDays?: number;
  /** The serving certificate's common name. @defaultValue the first host */
  commonName?: string;
  /** The CA's common name. @defaultValue `'kubekit-webhook-ca'` */
  caCommonName?: string;
  /** The current time. @defaultValue `new Date()` */
  now?: Date;
}

/** A CA and the serving certificate and key it signed, PEM-encoded. */
export interface GeneratedCertificates {
  /** The CA certificate (PEM); base64 of it is {@link GeneratedCertificates.caBundle}. */
  readonly caCert: string;
  /** The CA's private key (PEM, PKCS#8). */
  readonly caKey: string;
  /** The serving certificate (PEM). */
  readonly cert: string;
  /** The serving certificate's private key (PEM, PKCS#8). */
  readonly key: string;
  /** `caCert` in base64, as `clientConfig.caBundle` wants it. */
  readonly caBundle: string;
}

const oids = {
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

/** keyUsage bits (RFC 5280 §4.2.1.3). */
const keyUsage = { digitalSignature: 0, keyCertSign: 5, cRLSign: 6 };

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid(oids.commonName), utf8String(commonName))));
}

function extension(id: string, value: Buffer, critical = false): Buffer {
  return critical ? sequence(oid(id), booleanTrue(), octetString(value)) : sequence(oid(id), octetString(value));
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits (a P-256 point is the SPKI's last 65 bytes). */
function keyIdentifier(spki: Buffer): Buffer {
  return createHash('sha1').update(spki.subarray(spki.length - 65)).digest();
}

function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x40; // positive, and minimal with its 16 bytes
  return bytes;
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

function certificate(options: {
  subject: string; issuer: string; publicKey: KeyObject; signingKey: KeyObject; issuerKeyId?: Buffer;
  now: Date; validityDays: number; extensions: Buffer[];
}): Buffer {
  const spki = options.publicKey.export({ type: 'spki', format: 'der' });
  const algorithm = sequence(oid(oids.ecdsaWithSHA256));
  const extensions = [...options.extensions, extension(oids.subjectKeyIdentifier, octetString(keyIdentifier(spki)))];
  if (options.issuerKeyId !== undefined) extensions.push(extension(oids.authorityKeyIdentifier, sequence(tlv(0x80, options.issuerKeyId))));
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serialNumber()),
    algorithm,
    name(options.issuer),
    // A minute of slack for clocks that disagree a little.
    sequence(time(new Date(options.now.getTime() - 60_000)), time(new Date(options.now.getTime() + options.validityDays * 86_400_000))),
    name(options.subject),
    spki,
    explicit(3, sequence(...extensions)),
  );
  return sequence(tbs, algorithm, bitString(sign('sha256', tbs, options.signingKey)));
}

function ecKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

/**
 * Generates a self-signed CA and a serving certificate for `hosts`, signed by it (ECDSA P-256 with
 * SHA-256, X.509 v3 with the extensions Go's and Node's verifiers expect: basicConstraints, keyUsage,
 * serverAuth, subjectAltName, key identifiers). Everything is done with `node:crypto`.
 *
 * @throws TypeError when `hosts` is empty or a host is neither an IP address nor a DNS name
 * @example
 * ```ts
 * const certs = generateCertificates();
 * createServer({ cert: certs.cert, key: certs.key });   // and caBundle: certs.caBundle in the CRD
 * ```
 */
export function generateCertificates(options: CertificateOptions = {}): GeneratedCertificates {
  const hosts = options.hosts ?? ['127.0.0.1', 'localhost'];
  if (hosts.length === 0) throw new TypeError('generateCertificates: hosts must name at least one IP address or DNS name');
  const altNames: Buffer[] = [];
  for (const h of hosts) {
    const family = isIP(h);
    if (family === 4) altNames.push(tlv(0x87, Buffer.from(h.split('.').map(Number))));
    else if (family === 6) altNames.push(tlv(0x87, ipv6Bytes(h)));
    else if (/^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i.test(h)) altNames.push(tlv(0x82, Buffer.from(h, 'ascii')));
    else throw new TypeError(`generateCertificates: host ${JSON.stringify(h)} is neither an IP address nor a DNS name`);
  }
  const now = options.now ?? new Date();
  const validityDays = options.validityDays ?? 365;
  const ca = ecKey();
  const caName = options.caCommonName ?? 'kubekit-webhook-ca';
  const caCert = certificate({
    subject: caName, issuer: caName, publicKey: ca.publicKey, signingKey: ca.privateKey, now, validityDays,
    extensions: [
      extension(oids.basicConstraints, sequence(booleanTrue()), true),
      extension(oids.keyUsage, namedBits([keyUsage.digitalSignature, keyUsage.keyCertSign, keyUsage.cRLSign]), true),
    ],
  });
  const leaf = ecKey();
  const cert = certificate({
    subject: options.commonName ?? hosts[0], issuer: caName, publicKey: leaf.publicKey, signingKey: ca.privateKey,
    issuerKeyId: keyIdentifier(ca.publicKey.export({ type: 'spki', format: 'der' })), now, validityDays,
    extensions: [
      extension(oids.basicConstraints, sequence(), true),
      extension(oids.keyUsage, namedBits([keyUsage.digitalSignature]), true),
      extension(oids.extKeyUsage, sequence(oid(oids.serverAuth))),
      extension(oids.subjectAltName, sequence(...altNames)),
    ],
  });
  const caPem = pem('CERTIFICATE', caCert);
  return {
    caCert: caPem,
    caKey: ca.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: pem('CERTIFICATE', cert),
    key: leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    caBundle: Buffer.from(caPem, 'utf8').toString('base64'),
  };
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.includes('::') ? address.split('::') : [address, undefined as unknown as string];
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const h = parse(head);
  const t = address.includes('::') ? parse(tail) : [];
  const groups = [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(g, i * 2));
  return out;
}
