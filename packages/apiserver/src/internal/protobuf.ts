/**
 * Decoding of the Kubernetes protobuf wire format for the built-in kinds kubectl's generator commands
 * send that way (`kubectl create namespace|configmap|secret|deployment|job|cronjob|service|
 * serviceaccount|role|rolebinding|clusterrole|clusterrolebinding`): the `k8s\0` envelope around a
 * `runtime.Unknown`, hand-written decoders of Namespace, ConfigMap and Secret, and a decoder driven by
 * the message schema of `protobufSchema.ts` (generated from upstream's `generated.proto` files) for
 * the others. Anything else is answered with 415, as JSON is always accepted.
 *
 * @see https://kubernetes.io/docs/reference/using-api/api-concepts/#protobuf-encoding
 */
import { KubeError, type KubeObject } from '@kubekit/core';
import { setOwn } from './own.js';
import { protobufKinds, protobufMessages, protobufSpecialMessages, type ProtobufField } from './protobufSchema.js';

/** The media type of Kubernetes protobuf. */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

class Reader {
  pos = 0;
  constructor(private readonly buf: Uint8Array, private readonly end = buf.length) {}

  done(): boolean {
    return this.pos >= this.end;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw malformed();
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
    throw malformed();
  }

  /**
   * A varint read as a signed 64-bit integer (int32 and int64 fields: a negative one is sign-extended to
   * 10 bytes, whose value a float64 cannot hold exactly: -5 read through {@link varint} came out 0).
   */
  signedVarint(): number {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw malformed();
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return Number(BigInt.asIntN(64, result));
      shift += 7n;
    }
    throw malformed();
  }

  bytes(): Uint8Array {
    const len = this.varint();
    if (this.pos + len > this.end) throw malformed();
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  fixed(n: number): Uint8Array {
    if (this.pos + n > this.end) throw malformed();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    return Buffer.from(this.bytes()).toString('utf8');
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0: this.varint(); break;
      case 1: this.pos += 8; break;
      case 2: this.bytes(); break;
      case 5: this.pos += 4; break;
      default: throw malformed();
    }
  }

  /** Calls `fn(field, wireType)` for each field; `fn` must consume the value or return false to skip it. */
  each(fn: (field: number, wireType: number) => boolean): void {
    while (!this.done()) {
      const tag = this.varint();
      const field = Math.floor(tag / 8);
      const wireType = tag & 7;
      if (!fn(field, wireType)) this.skip(wireType);
    }
  }
}

function malformed(): KubeError {
  return KubeError.badRequest('unable to decode the protobuf request body');
}

function unsupported(): KubeError {
  return new KubeError('UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
}

function sub(bytes: Uint8Array): Reader {
  return new Reader(bytes);
}

function mapEntry(bytes: Uint8Array, valueAsBase64: boolean): [string, string] {
  let key = '';
  let value = '';
  const r = sub(bytes);
  r.each((f, w) => {
    if (w !== 2) return false;
    const b = r.bytes();
    if (f === 1) key = Buffer.from(b).toString('utf8');
    else if (f === 2) value = valueAsBase64 ? Buffer.from(b).toString('base64') : Buffer.from(b).toString('utf8');
    return true;
  });
  return [key, value];
}

function time(bytes: Uint8Array): string {
  let seconds = 0;
  const r = sub(bytes);
  r.each((f, w) => {
    if (f === 1 && w === 0) {
      seconds = r.varint();
      return true;
    }
    return false;
  });
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function objectMeta(bytes: Uint8Array): KubeObject['metadata'] {
  const m: KubeObject['metadata'] = {};
  const r = sub(bytes);
  r.each((f, w) => {
    if (w === 0) {
      const v = r.varint();
      // Go's JSON omits zero values (omitempty); the generated protobuf code writes them.
      if (f === 7 && v !== 0) m.generation = v;
      else if (f === 10) m.deletionGracePeriodSeconds = v;
      return true;
    }
    if (w !== 2) return false;
    const b = r.bytes();
    if (b.length === 0 && f !== 11 && f !== 12) return true;
    switch (f) {
      case 1: m.name = Buffer.from(b).toString('utf8'); break;
      case 2: m.generateName = Buffer.from(b).toString('utf8'); break;
      case 3: m.namespace = Buffer.from(b).toString('utf8'); break;
      case 5: m.uid = Buffer.from(b).toString('utf8'); break;
      case 6: m.resourceVersion = Buffer.from(b).toString('utf8'); break;
      case 8: m.creationTimestamp = time(b); break;
      case 9: m.deletionTimestamp = time(b); break;
      case 11: { const [k, v] = mapEntry(b, false); (m.labels ??= {})[k] = v; break; }
      case 12: { const [k, v] = mapEntry(b, false); (m.annotations ??= {})[k] = v; break; }
      case 14: (m.finalizers ??= []).push(Buffer.from(b).toString('utf8')); break;
      default: break;
    }
    return true;
  });
  return m;
}

type KindDecoder = (r: Reader, obj: KubeObject) => (field: number, wireType: number) => boolean;

const decoders: Record<string, KindDecoder> = {
  'v1/ConfigMap': (r, obj) => (f, w) => {
    if (f === 4 && w === 0) {
      obj.immutable = r.varint() !== 0;
      return true;
    }
    if (w !== 2) return false;
    const b = r.bytes();
    if (f === 1) obj.metadata = objectMeta(b);
    else if (f === 2) { const [k, v] = mapEntry(b, false); ((obj.data ??= {}) as Record<string, string>)[k] = v; }
    else if (f === 3) { const [k, v] = mapEntry(b, true); ((obj.binaryData ??= {}) as Record<string, string>)[k] = v; }
    return true;
  },
  'v1/Secret': (r, obj) => (f, w) => {
    if (f === 5 && w === 0) {
      obj.immutable = r.varint() !== 0;
      return true;
    }
    if (w !== 2) return false;
    const b = r.bytes();
    if (f === 1) obj.metadata = objectMeta(b);
    else if (f === 2) { const [k, v] = mapEntry(b, true); ((obj.data ??= {}) as Record<string, string>)[k] = v; }
    else if (f === 3) obj.type = Buffer.from(b).toString('utf8');
    else if (f === 4) { const [k, v] = mapEntry(b, false); ((obj.stringData ??= {}) as Record<string, string>)[k] = v; }
    return true;
  },
  'v1/Namespace': (r, obj) => (f, w) => {
    if (w !== 2) return false;
    const b = r.bytes();
    if (f === 1) obj.metadata = objectMeta(b);
    else if (f === 2) {
      const finalizers: string[] = [];
      const s = sub(b);
      s.each((sf, sw) => {
        if (sf === 1 && sw === 2) {
          finalizers.push(s.string());
          return true;
        }
        return false;
      });
      obj.spec = finalizers.length > 0 ? { finalizers } : {};
    }
    return true;
  },
};

/**
 * Decodes a protobuf request body of a supported built-in kind into its JSON form.
 *
 * @throws KubeError `UnsupportedMediaType` (415) for other kinds, `BadRequest` for malformed bodies.
 */
export function decodeProtobuf(body: Uint8Array): KubeObject {
  if (body.length < 4 || body[0] !== 0x6b || body[1] !== 0x38 || body[2] !== 0x73 || body[3] !== 0) throw malformed();
  const r = new Reader(body.subarray(4));
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array | undefined;
  r.each((f, w) => {
    if (w !== 2) return false;
    const b = r.bytes();
    if (f === 1) {
      const t = sub(b);
      t.each((tf, tw) => {
        if (tw !== 2) return false;
        const s = t.string();
        if (tf === 1) apiVersion = s;
        else if (tf === 2) kind = s;
        return true;
      });
    } else if (f === 2) {
      raw = b;
    }
    return true;
  });
  const decoder = decoders[`${apiVersion}/${kind}`];
  const message = Object.hasOwn(protobufKinds, `${apiVersion}/${kind}`) ? protobufKinds[`${apiVersion}/${kind}`] : undefined;
  if (decoder === undefined && message !== undefined && raw !== undefined) {
    return { apiVersion, kind, ...decodeMessage(raw, message, 0) } as KubeObject;
  }
  if (decoder === undefined || raw === undefined) throw unsupported();
  const obj: KubeObject = { apiVersion, kind, metadata: {} };
  const o = new Reader(raw);
  o.each(decoder(o, obj));
  return obj;
}

/** Decodes the bytes of one message of the schema (by its name, `core.Pod`) into its JSON form. */
export function decodeProtobufMessage(bytes: Uint8Array, message: string): Record<string, unknown> {
  return decodeMessage(bytes, message, 0);
}

/** The API groups whose kinds may arrive as protobuf. */
export const protobufGroups: readonly string[] = ['', 'admissionregistration.k8s.io', 'apps', 'autoscaling', 'authentication.k8s.io', 'authorization.k8s.io', 'batch', 'certificates.k8s.io', 'discovery.k8s.io', 'events.k8s.io', 'flowcontrol.apiserver.k8s.io', 'networking.k8s.io', 'node.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'resource.k8s.io', 'scheduling.k8s.io', 'storage.k8s.io'];

const maxMessageDepth = 64;

function scalar(r: Reader, type: string, wireType: number): unknown {
  switch (type) {
    case 'string': return wireType === 2 ? r.string() : undefined;
    case 'bytes': return wireType === 2 ? Buffer.from(r.bytes()).toString('base64') : undefined;
    case 'bool': return wireType === 0 ? r.varint() !== 0 : undefined;
    case 'double': {
      if (wireType !== 1) return undefined;
      const b = r.fixed(8);
      return Buffer.from(b).readDoubleLE(0);
    }
    default: return wireType === 0 ? r.signedVarint() : undefined;
  }
}

function special(kind: string, bytes: Uint8Array): unknown {
  const r = sub(bytes);
  const fields = new Map<number, unknown>();
  // An ExtraValue (`[]string` in Go, a message with repeated `items` on the wire): its JSON is the list.
  const items: string[] = [];
  r.each((f, w) => {
    if (kind === 'strings' && f === 1 && w === 2) items.push(Buffer.from(r.bytes()).toString('utf8'));
    else if (w === 0) fields.set(f, r.signedVarint());
    else if (w === 2) fields.set(f, r.bytes());
    else return false;
    return true;
  });
  if (kind === 'strings') return items;
  const text = (f: number): string => Buffer.from((fields.get(f) as Uint8Array | undefined) ?? new Uint8Array()).toString('utf8');
  switch (kind) {
    case 'time': {
      const seconds = fields.get(1);
      return typeof seconds === 'number' && seconds !== 0 ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : undefined;
    }
    case 'quantity': return text(1);
    case 'intstr': return fields.get(1) === 1 ? text(3) : (fields.get(2) ?? 0);
    case 'raw': {
      const raw = text(1);
      if (raw === '') return undefined;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw malformed();
      }
    }
    case 'duration': {
      const ns = fields.get(1);
      return typeof ns === 'number' ? `${ns / 1e9}s` : undefined;
    }
    default: return undefined;
  }
}

/** The value of one field on the wire, by its schema type; undefined when the wire type does not fit. */
function fieldValue(r: Reader, type: string, wireType: number, depth: number): unknown {
  if (Object.hasOwn(protobufMessages, type) || Object.hasOwn(protobufSpecialMessages, type)) {
    if (wireType !== 2) return undefined;
    const b = r.bytes();
    return Object.hasOwn(protobufSpecialMessages, type) ? special(protobufSpecialMessages[type], b) : decodeMessage(b, type, depth + 1);
  }
  return scalar(r, type, wireType);
}

function expectedWireType(type: string): number {
  if (type === 'double') return 1;
  if (type === 'string' || type === 'bytes' || Object.hasOwn(protobufMessages, type) || Object.hasOwn(protobufSpecialMessages, type)) return 2;
  return 0;
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/** Decodes one message of the schema into its JSON form (Go's omitempty: zero scalars dropped, unless pointers). */
function decodeMessage(bytes: Uint8Array, name: string, depth: number): Record<string, unknown> {
  if (depth > maxMessageDepth) throw malformed();
  const fields = protobufMessages[name];
  const byNumber = new Map<number, ProtobufField>(fields.map((f) => [f[0], f]));
  const out: Record<string, unknown> = {};
  const r = sub(bytes);
  r.each((num, wireType) => {
    const field = byNumber.get(num);
    if (field === undefined) return false;
    const [, json, type, repeated, optional] = field;
    if (type.startsWith('map:')) {
      if (wireType !== 2) return false;
      const entry = sub(r.bytes());
      let key = '';
      let value: unknown;
      entry.each((ef, ew) => {
        if (ef === 1 && ew === 2) key = entry.string();
        else if (ef === 2) value = fieldValue(entry, type.slice(4), ew, depth);
        else return false;
        return true;
      });
      const map = (Object.hasOwn(out, json) ? out[json] : (out[json] = {})) as Record<string, unknown>;
      setOwn(map, key, value ?? (type === 'map:string' ? '' : {}));
      return true;
    }
    if (repeated === 1 && wireType === 2 && type !== 'string' && type !== 'bytes' && !Object.hasOwn(protobufMessages, type) && !Object.hasOwn(protobufSpecialMessages, type)) {
      // A packed repeated scalar.
      const packed = sub(r.bytes());
      const list = (Object.hasOwn(out, json) ? out[json] : (out[json] = [])) as unknown[];
      while (!packed.done()) list.push(scalar(packed, type, type === 'double' ? 1 : 0));
      return true;
    }
    if (wireType !== expectedWireType(type)) return false;
    const value = fieldValue(r, type, wireType, depth);
    if (json === '') {
      // A member Go embeds inline: its members are this object's.
      if (value !== null && typeof value === 'object') Object.assign(out, value);
      return true;
    }
    if (repeated === 1) {
      const list = (Object.hasOwn(out, json) ? out[json] : (out[json] = [])) as unknown[];
      list.push(value ?? null);
    } else if (value !== undefined && !(isZero(value) && optional === 0)) {
      // A zero is kept where Go has a pointer (`*int32`, `*bool`: set, so JSON writes it), dropped elsewhere (omitempty).
      out[json] = value;
    }
    return true;
  });
  return out;
}
