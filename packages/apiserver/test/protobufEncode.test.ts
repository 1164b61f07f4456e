import { expect } from 'chai';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { decodeProtobuf, decodeProtobufMessage } from '../src/internal/protobuf.js';
import { encodeProtobuf, encodeProtobufWatchEvent } from '../src/internal/protobufEncode.js';
import { protobufAnswerKinds, protobufKinds, protobufMessages, protobufSpecialMessages } from '../src/internal/protobufSchema.js';
import { seededRandom } from '../../../test/support/seededRandom.js';

/** Answers recorded from kube-apiserver 1.34.4: an object's JSON and its protobuf bytes. */
const recorded = JSON.parse(readFileSync(new URL('./fixtures/protobuf-answers.json', import.meta.url), 'utf8')) as { answers: { json: Record<string, unknown>; protobuf: string }[] };

/**
 * A JSON value of a message of the schema, every scalar non-zero (Go's JSON drops zeros, which the
 * decoder drops too) and every member present or absent at random, nested at most `depth` messages deep.
 */
function sample(name: string, rnd: () => number, depth: number): Record<string, unknown> {
  // A Quantity member the generated code always writes (a DRA Counter's value) reads back as "0" when absent,
  // as Go's zero Quantity does: it is always present, "0" in a message past the depth.
  const alwaysWritten = ([, json, type, repeated, optional]: readonly [number, string, string, number, number]): boolean => json !== '' && repeated === 0 && optional === 0 && protobufSpecialMessages[type] === 'quantity';
  const bare = (type: string): Record<string, unknown> => Object.fromEntries(protobufMessages[type].filter(alwaysWritten).map(([, json]) => [json, '0']));
  const out: Record<string, unknown> = {};
  const pick = (n: number): number => Math.floor(rnd() * n);
  const value = (type: string, d: number): unknown => {
    if (Object.hasOwn(protobufSpecialMessages, type)) {
      switch (protobufSpecialMessages[type]) {
        case 'time': return new Date(Date.UTC(2020, 0, 1) + pick(1e6) * 1000).toISOString().replace('.000Z', 'Z');
        case 'quantity': return ['1Gi', '100m', '5', '2k'][pick(4)];
        case 'intstr': return rnd() < 0.5 ? 1 + pick(1000) : `p${pick(100)}`;
        case 'raw': return { a: pick(5), b: ['x'] };
        case 'duration': return `${1 + pick(59)}s`;
        default: return ['a', 'b'];
      }
    }
    switch (type) {
      case 'string': return `s${pick(1000)}é`;
      case 'bytes': return Buffer.from([1 + pick(255), pick(256)]).toString('base64');
      case 'bool': return true;
      case 'double': return 0.5 + pick(100);
      case 'int32': case 'int64': return (1 + pick(1 << 30)) * (rnd() < 0.2 ? -1 : 1);
      default: return d > 0 ? sample(type, rnd, d - 1) : bare(type);
    }
  };
  for (const f of protobufMessages[name]) {
    const [, json, type, repeated] = f;
    if (rnd() < 0.4 && !alwaysWritten(f)) continue;
    if (json === '') {
      if (depth > 0) Object.assign(out, sample(type, rnd, depth - 1));
    } else if (type.startsWith('map:')) {
      out[json] = { [`k${pick(10)}`]: value(type.slice(4), depth - 1), a: value(type.slice(4), depth - 1) };
    } else if (repeated === 1) {
      out[json] = [value(type, depth - 1), value(type, depth - 1)];
    } else {
      out[json] = value(type, depth - 1);
    }
  }
  return out;
}

/** A JSON value without its empty objects (the messages the generated code writes even when empty). */
function pruned(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(pruned);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const p = pruned(x);
    if (p !== null && typeof p === 'object' && !Array.isArray(p) && Object.keys(p).length === 0) continue;
    out[k] = p;
  }
  return out;
}

/** The raw message of an envelope (`k8s\0`, then runtime.Unknown's field 2). */
function rawOf(envelope: Uint8Array): Uint8Array {
  let p = 4;
  const varint = (): number => {
    let r = 0;
    for (let s = 0; ; s += 7) {
      const b = envelope[p++];
      r += (b & 0x7f) * 2 ** s;
      if ((b & 0x80) === 0) return r;
    }
  };
  while (p < envelope.length) {
    const tag = varint();
    const len = varint();
    if (tag === 0x12) return envelope.subarray(p, p + len);
    p += len;
  }
  throw new Error('no raw message');
}

describe('encodeProtobuf', () => {
  it('writes the bytes kube-apiserver writes for the same object (a ConfigMap with binary data and managedFields, a Pod with quantities, times and int-or-strings, a 404 and a 422 Status, a DeploymentList)', () => {
    for (const { json, protobuf } of recorded.answers) {
      expect(encodeProtobuf(json)?.toString('base64'), String(json.kind)).to.equal(protobuf);
    }
  });

  it('answers undefined for a kind without a message (a custom resource)', () => {
    expect(encodeProtobuf({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).to.equal(undefined);
  });

  it('frames a watch event: a big-endian length, then a WatchEvent whose object holds the envelope', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    const frame = encodeProtobufWatchEvent('ADDED', obj);
    const envelope = encodeProtobuf(obj);
    if (frame === undefined || envelope === undefined) throw new Error('no encoding');
    expect(frame.readUInt32BE(0)).to.equal(frame.length - 4);
    // type (field 1) "ADDED"; object (field 2): a RawExtension whose raw (field 1) is the envelope.
    const head = [0x0a, 5, ...Buffer.from('ADDED'), 0x12, envelope.length + 2, 0x0a, envelope.length];
    expect([...frame.subarray(4, 4 + head.length)]).to.deep.equal(head);
    expect(frame.subarray(4 + head.length).equals(envelope)).to.equal(true);
  });

  it('encodes then decodes every kind of the schema back to its JSON (property)', () => {
    const kinds = { ...protobufKinds, ...protobufAnswerKinds };
    fc.assert(fc.property(fc.integer(), (seed) => {
      const rnd = seededRandom(seed);
      for (const [key, message] of Object.entries(kinds)) {
        const slash = key.lastIndexOf('/');
        const obj = { apiVersion: key.slice(0, slash), kind: key.slice(slash + 1), ...sample(message, rnd, 4) };
        const bytes = encodeProtobuf(obj);
        if (bytes === undefined) throw new Error(`no message for ${key}`);
        const back = Object.hasOwn(protobufKinds, key) ? decodeProtobuf(bytes) : { apiVersion: obj.apiVersion, kind: obj.kind, ...decodeProtobufMessage(rawOf(bytes), message) };
        expect(pruned(back), key).to.deep.equal(pruned(obj));
      }
    }), { numRuns: 20 });
  });
});
