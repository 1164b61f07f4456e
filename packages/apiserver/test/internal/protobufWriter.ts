// A minimal protobuf writer, enough to build the messages kubectl sends: length-delimited and varint fields,
// and the `k8s\0` envelope (runtime.Unknown: the type's apiVersion and kind, then the raw message).

/** A varint. */
export function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

/** A length-delimited field: a string (UTF-8) or bytes. */
export function field(num: number, value: string | Uint8Array | number[]): number[] {
  const bytes = typeof value === 'string' ? [...Buffer.from(value)] : [...value];
  return [...varint(num * 8 + 2), ...varint(bytes.length), ...bytes];
}

/** A varint field. */
export function vfield(num: number, n: number): number[] {
  return [...varint(num * 8), ...varint(n)];
}

/** The bytes of a message in its `k8s\0` envelope. */
export function envelopeBytes(apiVersion: string, kind: string, raw: number[]): number[] {
  return [0x6b, 0x38, 0x73, 0, ...field(1, [...field(1, apiVersion), ...field(2, kind)]), ...field(2, raw)];
}
