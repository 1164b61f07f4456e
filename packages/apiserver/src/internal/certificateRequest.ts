/**
 * The PEM and DER reading a CertificateSigningRequest's validation does, in Go's words: `pem.Decode`,
 * `x509.ParseCertificateRequest` and `CheckSignature` (certificates.ParseCSR and the validation's
 * `validateCSR`), `x509.ParseCertificates` of `status.certificate` blocks, and the subject's
 * organizations that the CertificateSubjectRestriction admission plugin reads. Signatures are checked
 * with node:crypto; the DER reader knows only the shape of a PKCS #10 request.
 *
 * Go's `encoding/asn1` has many words for a malformed structure; the common ones (no data, a length past
 * the end, bytes after the request, the outer element not a SEQUENCE) are Go's, any other shape is
 * reported as the nearest of them.
 */
import { X509Certificate, createPublicKey, verify, type KeyObject } from 'node:crypto';

/** One PEM block: its type, headers and decoded bytes. */
export interface PemBlock {
  type: string;
  headers: [string, string][];
  bytes: Buffer;
}

/** A line of `data` from `start` as Go's pem `getLine` cuts it: trailing spaces, tabs and `\r` trimmed. */
function getLine(data: string, start: number): { line: string; next: number } {
  const nl = data.indexOf('\n', start);
  const end = nl < 0 ? data.length : nl;
  return { line: data.slice(start, end).replace(/[ \t\r]+$/, ''), next: nl < 0 ? data.length : nl + 1 };
}

/**
 * `pem.Decode`: the first PEM block of `data` and the text after it, or undefined when there is none (a
 * block whose body is not base64 is skipped, as Go skips it).
 */
export function decodePem(data: string): { block: PemBlock; rest: string } | undefined {
  let from = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    const at = data.startsWith('-----BEGIN ', from) ? from : data.indexOf('\n-----BEGIN ', from);
    if (at < 0) return undefined;
    const begin = data.startsWith('-----BEGIN ', at) ? at : at + 1;
    const { line: typeLine, next } = getLine(data, begin + '-----BEGIN '.length);
    if (!typeLine.endsWith('-----')) {
      from = begin + 1;
      continue;
    }
    const type = typeLine.slice(0, -5);
    let rest = next;
    const headers: [string, string][] = [];
    while (rest < data.length) {
      const { line, next: after } = getLine(data, rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
      rest = after;
    }
    if (rest >= data.length && headers.length > 0) return undefined;
    const endMarker = `-----END ${type}-----`;
    let endIndex: number;
    let endTrailer: number;
    if (data.startsWith(endMarker, rest)) {
      endIndex = rest;
      endTrailer = rest + endMarker.length;
    } else {
      const i = data.indexOf(`\n${endMarker}`, rest);
      if (i < 0) {
        from = begin + 1;
        continue;
      }
      endIndex = i;
      endTrailer = i + 1 + endMarker.length;
    }
    const { line: trailer, next: restAfter } = getLine(data, endTrailer);
    const body = data.slice(rest, endIndex).replace(/[ \t\r\n]/g, '');
    if (trailer !== '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) {
      from = begin + 1;
      continue;
    }
    return { block: { type, headers, bytes: Buffer.from(body, 'base64') }, rest: data.slice(restAfter) };
  }
  return undefined;
}

/** A DER element: its tag byte, where its content starts and ends. */
interface Element {
  tag: number;
  start: number;
  end: number;
  /** Where its header starts. */
  at: number;
  length: number;
}

class Asn1Error extends Error {}

/** Reads the element at `offset` of `der[offset, limit)`, as encoding/asn1's `parseTagAndLength` and length check. */
function readElement(der: Buffer, offset: number, limit: number, expect?: { tag: number; name: string }): Element {
  if (offset >= limit) throw new Asn1Error('asn1: syntax error: sequence truncated');
  const tag = der[offset];
  if ((tag & 0x1f) === 0x1f) throw new Asn1Error('asn1: syntax error: data truncated');
  let i = offset + 1;
  if (i >= limit) throw new Asn1Error('asn1: syntax error: data truncated');
  let length = der[i++];
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Asn1Error('asn1: structure error: length too large');
    length = 0;
    for (let k = 0; k < count; k++) {
      if (i >= limit) throw new Asn1Error('asn1: syntax error: data truncated');
      length = length * 256 + der[i++];
    }
  }
  const e = { tag, start: i, end: i + length, at: offset, length };
  // The tag is checked before the length (a request that is not a SEQUENCE is a structure error).
  if (expect !== undefined && tag !== expect.tag) throw tagMismatch(e, expect.name);
  if (i + length > limit) throw new Asn1Error('asn1: syntax error: data truncated');
  return e;
}

/** Go's `tags don't match` structure error for an element that is not the SEQUENCE of the struct `name`. */
function tagMismatch(e: Element, name: string): Asn1Error {
  const cls = e.tag >> 6;
  const params = '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}';
  return new Asn1Error(`asn1: structure error: tags don't match (16 vs {class:${cls} tag:${e.tag & 0x1f} length:${e.length} isCompound:${(e.tag & 0x20) !== 0}}) ${params} ${name} @${e.start - e.at}`);
}

/** The elements of a constructed element's content, in order. */
function children(der: Buffer, e: Element): Element[] {
  const out: Element[] = [];
  for (let at = e.start; at < e.end;) {
    const c = readElement(der, at, e.end);
    out.push(c);
    at = c.end;
  }
  return out;
}

/** A SEQUENCE's elements, at least `min` of them. */
function sequence(der: Buffer, e: Element, name: string, min: number): Element[] {
  if (e.tag !== 0x30) throw tagMismatch(e, name);
  const items = children(der, e);
  if (items.length < min) throw new Asn1Error('asn1: syntax error: sequence truncated');
  return items;
}

/** An OBJECT IDENTIFIER's dotted text. */
function oidText(der: Buffer, e: Element): string {
  const bytes = der.subarray(e.start, e.end);
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      if (parts.length === 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

const oidOrganization = '2.5.4.10';

/** How each signature algorithm a request may name is checked: the hash, and the key type Go expects. */
const signatureAlgorithms: Readonly<Record<string, { hash: string | null; key: 'rsa' | 'ec' | 'ed25519' }>> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', key: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
  '1.2.840.10045.4.1': { hash: 'sha1', key: 'ec' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ec' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ec' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ec' },
  '1.3.101.112': { hash: null, key: 'ed25519' },
};

/** What checking a request's signature failed with, in Go's words. */
const verificationFailure: Readonly<Record<'rsa' | 'ec' | 'ed25519', string>> = {
  rsa: 'crypto/rsa: verification error',
  ec: 'x509: ECDSA verification failure',
  ed25519: 'x509: Ed25519 verification failure',
};

/** A parsed request: the organizations of its subject. */
export interface CertificateRequest {
  organizations: string[];
}

/** The text of a directory string (UTF8String, PrintableString, IA5String, T61String, BMPString). */
function directoryString(der: Buffer, e: Element): string {
  const bytes = der.subarray(e.start, e.end);
  if (e.tag === 0x1e) {
    let out = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i));
    return out;
  }
  return bytes.toString(e.tag === 0x14 ? 'latin1' : 'utf8');
}

/**
 * `certificates.ParseCSR` then `CheckSignature`: the request of the first PEM block of `pem` (of type
 * `CERTIFICATE REQUEST`), or why not, in Go's words.
 */
export function parseCertificateRequest(pem: Buffer): CertificateRequest | { error: string } {
  const decoded = decodePem(pem.toString('latin1'));
  if (decoded === undefined || decoded.block.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  const der = decoded.block.bytes;
  try {
    const outer = readElement(der, 0, der.length, { tag: 0x30, name: 'certificateRequest' });
    if (outer.end !== der.length) throw new Asn1Error('asn1: syntax error: trailing data');
    const [tbs, algorithm, signature] = sequence(der, outer, 'certificateRequest', 3);
    const [, subject, publicKeyInfo] = sequence(der, tbs, 'tbsCertificateRequest', 3);
    const [algorithmOid] = sequence(der, algorithm, 'AlgorithmIdentifier', 1);
    if (signature.tag !== 0x03 || signature.length < 1) throw new Asn1Error('asn1: syntax error: invalid bit string');
    const organizations: string[] = [];
    for (const rdn of sequence(der, subject, 'RDNSequence', 0)) {
      for (const atv of children(der, rdn)) {
        const [type, value] = sequence(der, atv, 'AttributeTypeAndValue', 2);
        if (oidText(der, type) === oidOrganization) organizations.push(directoryString(der, value));
      }
    }
    const how = signatureAlgorithms[oidText(der, algorithmOid)];
    let key: KeyObject;
    try {
      key = createPublicKey({ key: der.subarray(publicKeyInfo.at, publicKeyInfo.end), format: 'der', type: 'spki' });
    } catch {
      return { error: 'x509: cannot verify signature: algorithm unimplemented' };
    }
    if (how === undefined) return { error: 'x509: cannot verify signature: algorithm unimplemented' };
    const keyType = key.asymmetricKeyType === 'rsa' ? 'rsa' : key.asymmetricKeyType === 'ec' ? 'ec' : key.asymmetricKeyType === 'ed25519' ? 'ed25519' : undefined;
    if (keyType !== how.key) return { error: 'x509: cannot verify signature: algorithm unimplemented' };
    // The BIT STRING's first byte counts the unused bits of the last.
    const sig = der.subarray(signature.start + 1, signature.end);
    let ok = false;
    try {
      ok = verify(how.hash, der.subarray(tbs.at, tbs.end), key, sig);
    } catch {
      ok = false;
    }
    return ok ? { organizations } : { error: verificationFailure[how.key] };
  } catch (err) {
    if (err instanceof Asn1Error) return { error: err.message };
    throw err;
  }
}

/**
 * The validation's `validateCertificate`: undefined for no data or PEM `CERTIFICATE` blocks without headers,
 * each holding certificates; else why not.
 */
export function certificateError(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  let text = pem.toString('latin1');
  let blocks = 0;
  for (let guard = 0; guard < 10_000; guard++) {
    const decoded = decodePem(text);
    if (decoded === undefined) break;
    const { block } = decoded;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (block.headers.length > 0) return 'no PEM block headers are permitted';
    blocks++;
    if (block.bytes.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    // x509.ParseCertificates: one certificate after the other.
    for (let at = 0; at < block.bytes.length;) {
      let e: Element;
      try {
        e = readElement(block.bytes, at, block.bytes.length);
        new X509Certificate(block.bytes.subarray(at, e.end));
      } catch {
        return 'x509: malformed certificate';
      }
      at = e.end;
    }
    text = decoded.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}
