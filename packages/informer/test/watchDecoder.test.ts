import { expect } from 'chai';
import fc from 'fast-check';
import type { WatchEvent } from '@kubekit/core';
import { WatchDecoder, decodeWatchLine, decodeWatchStream } from '../src/watchDecoder.js';

function decodeAll(chunks: Buffer[]): WatchEvent[] {
  const decoder = new WatchDecoder();
  const out: WatchEvent[] = [];
  for (const c of chunks) decoder.push(c, (e) => out.push(e));
  decoder.end((e) => out.push(e));
  return out;
}

const events: WatchEvent[] = [
  { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '1' }, data: { k: 'ü€𝄞 multi-byte' } } },
  { type: 'MODIFIED', object: { metadata: { name: 'a', resourceVersion: '2', annotations: { long: 'x'.repeat(5000) } } } },
  { type: 'BOOKMARK', object: { metadata: { resourceVersion: '3' } } },
  { type: 'DELETED', object: { metadata: { name: 'a', resourceVersion: '4' } } },
];
const wire = Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join(''));

describe('WatchDecoder', () => {
  it('does decode the same events whatever the chunk boundaries', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: wire.length }), { maxLength: 30 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let prev = 0;
        for (const p of points) {
          chunks.push(wire.subarray(prev, p));
          prev = p;
        }
        chunks.push(wire.subarray(prev));
        expect(decodeAll(chunks)).to.deep.equal(events);
      }),
    );
  });

  it('does cut managedFields and keep big integers exact for a cut at every byte offset (skipManagedFields)', () => {
    const mf = [{ manager: 'm', fieldsV1: { 'f:spec': { 'f:n': {} } } }];
    const objects = [
      { apiVersion: 'v1', kind: 'X', metadata: { labels: { 'ü': '€𝄞' }, managedFields: mf, name: 'a', resourceVersion: '1' }, spec: { n: 1234567890123456789n, s: '"managedFields":[1],"name":"no"' } },
      { apiVersion: 'v1', kind: 'X', metadata: { managedFields: mf, name: 'b', resourceVersion: '2' }, spec: { n: 9007199254740993n, m: 900719925474099 } },
    ];
    const text = objects.map((o) => `{"type":"MODIFIED","object":${JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? `@${v}@` : v)).replace(/"@(\d+)@"/g, '$1')}}\r\n`).join('');
    const bytes = Buffer.from(text);
    const want = objects.map((o) => ({ type: 'MODIFIED', object: { ...o, metadata: { ...o.metadata, managedFields: undefined } } }));
    for (const w of want) delete (w.object.metadata as { managedFields?: unknown }).managedFields;
    for (let p = 0; p <= bytes.length; p++) {
      const decoder = new WatchDecoder({ skipManagedFields: true });
      const out: WatchEvent[] = [];
      decoder.push(bytes.subarray(0, p), (e) => out.push(e));
      decoder.push(bytes.subarray(p), (e) => out.push(e));
      decoder.end((e) => out.push(e));
      expect(out, `cut at ${p}`).to.deep.equal(want);
    }
  });

  it('does skip blank lines and accept CRLF line ends', () => {
    const text = '\n  \r\n' + JSON.stringify(events[0]) + '\r\n\n' + JSON.stringify(events[2]) + '\n';
    expect(decodeAll([Buffer.from(text)])).to.deep.equal([events[0], events[2]]);
  });

  it('does report a truncated last line as an ERROR event with unexpected EOF', () => {
    const text = JSON.stringify(events[0]) + '\n' + JSON.stringify(events[1]).slice(0, 40);
    const out = decodeAll([Buffer.from(text)]);
    expect(out).to.have.length(2);
    expect(out[0]).to.deep.equal(events[0]);
    expect(out[1].type).to.equal('ERROR');
    expect((out[1].object as { message: string }).message).to.match(/^unable to decode an event from the watch stream: unexpected EOF/);
  });

  it('does turn an undecodable line into an ERROR event and go on with the next', () => {
    const text = '{"type":"ADDED","object":{' + '\n' + JSON.stringify(events[2]) + '\n' + '[1,2]\n';
    const out = decodeAll([Buffer.from(text)]);
    expect(out.map((e) => e.type)).to.deep.equal(['ERROR', 'BOOKMARK', 'ERROR']);
    expect((out[0].object as { reason: string; code: number }).reason).to.equal('InternalError');
    expect((out[0].object as { code: number }).code).to.equal(500);
  });

  it('does say what is wrong with a line that is JSON but not a watch event', () => {
    const lines = [
      ['{"type":"WEIRD","object":{}}', 'got invalid watch event type: WEIRD'],
      ['{"object":{}}', 'got invalid watch event type: '],
      ['{"type":5,"object":{}}', 'got invalid watch event type: 5'],
      ['{"type":"ADDED","object":null}', "the ADDED event's object is null; expected an object"],
      ['{"type":"MODIFIED","object":[1]}', "the MODIFIED event's object is array; expected an object"],
      ['{"type":"DELETED"}', 'the DELETED event has no object'],
      ['[1,2]', 'expected an event (an object with "type" and "object"), got array'],
      ['"x"', 'expected an event (an object with "type" and "object"), got string'],
      ['null', 'expected an event (an object with "type" and "object"), got null'],
    ];
    for (const [line, problem] of lines) {
      const event = decodeWatchLine(line);
      expect(event.type, line).to.equal('ERROR');
      expect((event.object as { message: string }).message, line).to.equal(`unable to decode an event from the watch stream: ${problem}`);
    }
  });

  it('does keep integers beyond 2^53 exact', () => {
    const e = decodeWatchLine('{"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"n":1234567890123456789}}}');
    expect((e.object as { spec: { n: unknown } }).spec.n).to.equal(1234567890123456789n);
  });

  it('does abandon a line longer than the limit with one ERROR event', () => {
    const decoder = new WatchDecoder({ maxLineBytes: 100 });
    const out: WatchEvent[] = [];
    decoder.push(Buffer.from('{"type":"ADDED","object":{"metadata":{"name":"' + 'x'.repeat(200)), (e) => out.push(e));
    decoder.push(Buffer.from('"}}}\n' + JSON.stringify(events[2]) + '\n'), (e) => out.push(e));
    decoder.end((e) => out.push(e));
    expect(out.map((e) => e.type)).to.deep.equal(['ERROR']);
  });
});

describe('decodeWatchStream', () => {
  it('does yield the events of an async iterable of chunks in order', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < wire.length; i += 7) yield new Uint8Array(wire.subarray(i, i + 7));
    }
    const out: WatchEvent[] = [];
    for await (const e of decodeWatchStream(body())) out.push(e);
    expect(out).to.deep.equal(events);
  });
});
