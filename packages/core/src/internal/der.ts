/**
 * The few ASN.1 DER encodings an X.509 v3 certificate needs (ITU-T X.690), enough for
 * {@link generateCertificates}; lengths and integers in their minimal forms, as DER requires.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A tag-length-value triple. */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (content: Buffer): Buffer => tlv(0x04, content);
export const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
export const booleanTrue = (): Buffer => Buffer.from([0x01, 0x01, 0xff]);
/** `[n] EXPLICIT`: a constructed context-specific tag around `content`. */
export const explicit = (n: number, content: Buffer): Buffer => tlv(0xa0 | n, content);

/** A non-negative INTEGER from big-endian bytes, made minimal (and positive). */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, trimmed[0] >= 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** A BIT STRING of whole bytes, or of `bits` named bits (bit 0 first, trailing zero bits dropped). */
export function bitString(content: Buffer): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
}

/** A named-bit BIT STRING (such as keyUsage) with bits numbered from the most significant. */
export function namedBits(bits: readonly number[]): Buffer {
  const max = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(max / 8) + 1);
  for (const b of bits) bytes[Math.floor(b / 8)] |= 0x80 >> (b % 8);
  const unused = 7 - (max % 8);
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), bytes]));
}

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * parts[0] + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5), to the second, in UTC. */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = date.getUTCFullYear();
  return year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii')) : tlv(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}
