/**
 * Encoding of answers in the Kubernetes protobuf wire format, as kube-apiserver writes them
 * (apimachinery `runtime/serializer/protobuf`): the `k8s\0` magic, then a `runtime.Unknown` holding the
 * object's TypeMeta, its message as `raw`, and an empty contentEncoding and contentType. The message is
 * written from the object's JSON form as the generated `Marshal` of k8s.io/api writes the Go struct: fields
 * in field-number order; a map's entries sorted by key (Go's byte order); a field the generated code guards
 * with `if m.Field != nil` (a pointer, a byte slice) only when the JSON has it, and every other one always,
 * its zero value when the JSON leaves it out (omitempty); repeated scalars unpacked.
 *
 * A watch stream's frames (`streaming.NewEncoder` with the length-delimited framer) are a 4-byte big-endian
 * length, then a `meta.v1.WatchEvent` whose object is a RawExtension holding the envelope of the object.
 *
 * @see https://kubernetes.io/docs/reference/using-api/api-concepts/#protobuf-encoding
 */
import { parseGoDuration, stringifyJSON } from '@kubekit/core';
import { protobufAnswerKinds, protobufKinds, protobufMessages, protobufSpecialMessages, type ProtobufField } from './protobufSchema.js';

/** The media type of a protobuf watch stream's answer. */
export const protobufWatchMediaType = 'application/vnd.kubernetes.protobuf;stream=watch';

const magic = [0x6b, 0x38, 0x73, 0x00];

/** A growing buffer written front to back; a nested message's length is patched in once it is known. */
class Writer {
  buf = Buffer.allocUnsafe(4096);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** A varint of a non-negative integer, or of a negative one as Go's `uint64(int64)` (10 bytes). */
  varint(n: number | bigint): void {
    this.ensure(10);
    if (typeof n === 'number' && n >= 0 && n <= 0xffffffff) {
      let v = n >>> 0;
      while (v >= 0x80) {
        this.buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      this.buf[this.pos++] = v;
      return;
    }
    let v = BigInt.asUintN(64, typeof n === 'bigint' ? n : BigInt(Math.trunc(n)));
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  string(s: string): void {
    const n = s.length;
    if (n < 128) {
      // Short ASCII text (most of an object's): copied without asking Buffer for its UTF-8 length.
      this.ensure(n + 1);
      const start = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        this.buf[start + 1 + i] = c;
      }
      if (i === n) {
        this.buf[start] = n;
        this.pos = start + 1 + n;
        return;
      }
    }
    const len = Buffer.byteLength(s, 'utf8');
    this.varint(len);
    this.ensure(len);
    this.pos += this.buf.write(s, this.pos, len, 'utf8');
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Starts a length-delimited value: one byte is kept for its length. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the value begun at `start`, moving it when its length needs more than one byte. */
  end(start: number): void {
    const len = this.pos - start - 1;
    if (len < 0x80) {
      this.buf[start] = len;
      return;
    }
    let size = 1;
    for (let v = len; v >= 0x80; v = Math.floor(v / 128)) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(start + size, start + 1, this.pos);
    let v = len;
    let p = start;
    while (v >= 0x80) {
      this.buf[p++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[p] = v;
    this.pos += size - 1;
  }

  result(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

/** Each message's fields in field-number order (the generated code's order). */
const ordered = new Map<string, readonly ProtobufField[]>();

function fieldsOf(name: string): readonly ProtobufField[] {
  let fields = ordered.get(name);
  if (fields === undefined) {
    fields = [...protobufMessages[name]].sort((a, b) => a[0] - b[0]);
    ordered.set(name, fields);
  }
  return fields;
}

const isSpecial = (type: string): boolean => Object.hasOwn(protobufSpecialMessages, type);

/** Go's `sort.Strings`: byte order of the UTF-8 text, which UTF-16 order equals unless a key has a character from U+D800 up. */
function sortedKeys(map: Record<string, unknown>): string[] {
  const keys = Object.keys(map);
  if (keys.some((k) => /[\ud800-\uffff]/.test(k))) return keys.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  return keys.sort();
}

const asRecord = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);

function integer(v: unknown): number | bigint {
  if (typeof v === 'bigint') return v;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

/** An RFC 3339 time's seconds and nanoseconds (the JSON of a Time or MicroTime). */
function timestamp(v: unknown): [number, number] | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(v);
  if (m === null) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return undefined;
  return [Math.floor(ms / 1000), Number((m[2] ?? '').padEnd(9, '0'))];
}

/** Go's `time.ParseDuration` of a Duration's JSON (`1h0m0s`), in nanoseconds; 0 when it does not parse. */
function durationNanos(v: unknown): number {
  return typeof v === 'string' ? Number(parseGoDuration(v).nanoseconds ?? 0n) : 0;
}

/** The body of a message with a JSON form of its own (`protobufSpecialMessages`). */
function writeSpecial(w: Writer, type: string, v: unknown): void {
  switch (protobufSpecialMessages[type]) {
    case 'time': {
      const t = timestamp(v);
      if (t === undefined) return;
      w.tag(1, 0);
      w.varint(t[0]);
      w.tag(2, 0);
      // A Time keeps seconds only; a MicroTime microseconds.
      w.varint(type === 'meta.MicroTime' ? Math.floor(t[1] / 1000) * 1000 : 0);
      return;
    }
    case 'quantity':
      w.tag(1, 2);
      w.string(v === undefined || v === null ? '0' : String(v));
      return;
    case 'intstr': {
      const isString = typeof v === 'string';
      w.tag(1, 0);
      w.varint(isString ? 1 : 0);
      w.tag(2, 0);
      w.varint(isString ? 0 : integer(v ?? 0));
      w.tag(3, 2);
      w.string(isString ? v : '');
      return;
    }
    case 'raw':
      if (v === undefined) return;
      w.tag(1, 2);
      w.string(stringifyJSON(v));
      return;
    case 'duration':
      w.tag(1, 0);
      w.varint(durationNanos(v));
      return;
    case 'strings':
      if (!Array.isArray(v)) return;
      for (const s of v) {
        w.tag(1, 2);
        w.string(String(s));
      }
      return;
    default:
  }
}

/** One value of a field: `v` undefined writes the type's zero value. */
function writeValue(w: Writer, num: number, type: string, v: unknown, depth: number): void {
  switch (type) {
    case 'string':
      w.tag(num, 2);
      w.string(typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
      return;
    case 'bytes':
      w.tag(num, 2);
      w.bytes(typeof v === 'string' ? Buffer.from(v, 'base64') : new Uint8Array());
      return;
    case 'bool':
      w.tag(num, 0);
      w.byte(v === true ? 1 : 0);
      return;
    case 'double': {
      w.tag(num, 1);
      w.ensure(8);
      w.buf.writeDoubleLE(typeof v === 'number' ? v : Number(v ?? 0), w.pos);
      w.pos += 8;
      return;
    }
    case 'float': {
      w.tag(num, 5);
      w.ensure(4);
      w.buf.writeFloatLE(typeof v === 'number' ? v : Number(v ?? 0), w.pos);
      w.pos += 4;
      return;
    }
    case 'int32': case 'int64': case 'uint32': case 'uint64':
      w.tag(num, 0);
      w.varint(integer(v ?? 0));
      return;
    default: {
      w.tag(num, 2);
      const start = w.begin();
      if (isSpecial(type)) writeSpecial(w, type, v);
      else writeMessage(w, type, asRecord(v), depth + 1);
      w.end(start);
    }
  }
}

const maxDepth = 100;

/** The fields of message `name` from the JSON object `obj` (undefined: every field empty). */
function writeMessage(w: Writer, name: string, obj: Record<string, unknown> | undefined, depth: number): void {
  if (depth > maxDepth) throw new Error(`protobuf message ${name} nested deeper than ${maxDepth} levels`);
  for (const [num, json, type, repeated, optional] of fieldsOf(name)) {
    // A member Go embeds inline is a message of its own on the wire, written from the same JSON object.
    const v = json === '' ? obj : obj !== undefined && Object.hasOwn(obj, json) ? obj[json] : undefined;
    if (type.startsWith('map:')) {
      const map = asRecord(v);
      if (map === undefined) continue;
      const valueType = type.slice(4);
      for (const key of sortedKeys(map)) {
        w.tag(num, 2);
        const start = w.begin();
        w.tag(1, 2);
        w.string(key);
        writeValue(w, 2, valueType, map[key], depth);
        w.end(start);
      }
    } else if (repeated === 1) {
      if (!Array.isArray(v)) continue;
      for (const item of v) writeValue(w, num, type, item ?? undefined, depth);
    } else if (v === undefined || v === null) {
      if (optional === 0) writeValue(w, num, type, undefined, depth);
    } else {
      writeValue(w, num, type, v, depth);
    }
  }
}

/** The message an answer of this apiVersion and kind is written as, if kubekit has its schema. */
export function protobufMessageOf(apiVersion: string, kind: string): string | undefined {
  const key = `${apiVersion}/${kind}`;
  if (Object.hasOwn(protobufKinds, key)) return protobufKinds[key];
  return Object.hasOwn(protobufAnswerKinds, key) ? protobufAnswerKinds[key] : undefined;
}

function writeEnvelope(w: Writer, obj: Record<string, unknown>, message: string): void {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  for (const b of magic) w.byte(b);
  w.tag(1, 2);
  const typeMeta = w.begin();
  w.tag(1, 2);
  w.string(apiVersion);
  w.tag(2, 2);
  w.string(kind);
  w.end(typeMeta);
  w.tag(2, 2);
  const raw = w.begin();
  writeMessage(w, message, obj, 0);
  w.end(raw);
  // contentEncoding and contentType, empty.
  w.tag(3, 2);
  w.byte(0);
  w.tag(4, 2);
  w.byte(0);
}

/**
 * The protobuf answer of an object (its JSON form, with apiVersion and kind), or undefined when kubekit
 * has no message for its kind.
 */
export function encodeProtobuf(obj: Record<string, unknown>): Buffer | undefined {
  const message = protobufMessageOf(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
  if (message === undefined) return undefined;
  const w = new Writer();
  writeEnvelope(w, obj, message);
  return w.result();
}

/** One frame of a protobuf watch stream: the length, then the WatchEvent of `type` around the object's envelope. */
export function encodeProtobufWatchEvent(type: string, obj: Record<string, unknown>): Buffer | undefined {
  const message = protobufMessageOf(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
  if (message === undefined) return undefined;
  const w = new Writer();
  w.pos = 4;
  w.tag(1, 2);
  w.string(type);
  w.tag(2, 2);
  const object = w.begin();
  w.tag(1, 2);
  const raw = w.begin();
  writeEnvelope(w, obj, message);
  w.end(raw);
  w.end(object);
  w.buf.writeUInt32BE(w.pos - 4, 0);
  return w.result();
}
