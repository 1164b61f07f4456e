import { expect } from 'chai';
import fc from 'fast-check';
import { LineSplitter } from '../../src/internal/lineSplitter.js';

/** Every line `push` reports for `chunks`, with its digits flag. */
function split(chunks: Buffer[], maxLineBytes = 1 << 30): { lines: [string, boolean][]; ok: boolean; pending: number } {
  const splitter = new LineSplitter(maxLineBytes);
  const lines: [string, boolean][] = [];
  let ok = true;
  for (const c of chunks) ok = splitter.push(c, (line, digitsChecked) => lines.push([line, digitsChecked])) && ok;
  return { lines, ok, pending: splitter.pendingBytes };
}

/** `bytes` cut at each of `points`. */
function cutAt(bytes: Buffer, points: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let prev = 0;
  for (const p of [...new Set(points)].sort((a, b) => a - b)) {
    chunks.push(bytes.subarray(prev, p));
    prev = p;
  }
  chunks.push(bytes.subarray(prev));
  return chunks;
}

const text = ['{"a":"ü€𝄞 multi-byte"}', '', '  ', '{"b":"\\"managedFields\\":[ in a string"}', '{"n":1234567890123456789}', '{"c":1}'].join('\n') + '\n';
const expected = ['{"a":"ü€𝄞 multi-byte"}', '{"b":"\\"managedFields\\":[ in a string"}', '{"n":1234567890123456789}', '{"c":1}'];
const wire = Buffer.from(text);

describe('LineSplitter', () => {
  it('does give the same lines for a cut at every byte offset (through multi-byte characters too)', () => {
    for (let p = 0; p <= wire.length; p++) {
      const { lines, ok, pending } = split(cutAt(wire, [p]));
      expect(lines.map(([l]) => l), `cut at ${p}`).to.deep.equal(expected);
      expect(ok).to.equal(true);
      expect(pending).to.equal(0);
    }
  });

  it('does give the same lines whatever the chunk boundaries (property)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: wire.length }), { maxLength: 40 }), (points) => {
      expect(split(cutAt(wire, points)).lines.map(([l]) => l)).to.deep.equal(expected);
    }));
  });

  it('does never vouch for the digits of a line with a run of 16 digits, wherever the chunks are cut', () => {
    for (let p = 0; p <= wire.length; p++) {
      for (const [line, digitsChecked] of split(cutAt(wire, [p, p + 7])).lines) {
        if (/\d{16}/.test(line)) expect(digitsChecked, `${line} cut at ${p}`).to.equal(false);
      }
    }
    // One byte at a time: every line is a carried one.
    for (const [line, digitsChecked] of split(cutAt(wire, Array.from({ length: wire.length }, (_, i) => i))).lines) {
      expect(digitsChecked, line).to.equal(!/\d{16}/.test(line));
    }
  });

  it('does strip CR of CRLF line ends and skip blank lines', () => {
    const { lines } = split([Buffer.from('\r\n{"a":1}\r\n\r\n \t \r\n{"b":2}\n\n')]);
    expect(lines.map(([l]) => l)).to.deep.equal(['{"a":1}', '{"b":2}']);
    // A CR in one chunk, its LF in the next.
    expect(split([Buffer.from('{"a":1}\r'), Buffer.from('\n{"b":2}\r'), Buffer.from('\n')]).lines.map(([l]) => l)).to.deep.equal(['{"a":1}', '{"b":2}']);
  });

  it('does hold an unfinished line back until its newline comes', () => {
    const { lines, pending } = split([Buffer.from('{"a":1}\n{"b"'), Buffer.from(':2')]);
    expect(lines.map(([l]) => l)).to.deep.equal(['{"a":1}']);
    expect(pending).to.equal(6);
  });

  it('does pass a line of 10 MB, in 64 KiB chunks and whole', () => {
    const big = `{"x":"${'y'.repeat(10 * 1024 * 1024)}"}`;
    const bytes = Buffer.from(`{"a":1}\n${big}\n{"b":2}\n`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));
    for (const input of [chunks, [bytes]]) {
      const { lines } = split(input);
      expect(lines.map(([l]) => l.length)).to.deep.equal([7, big.length, 7]);
      expect(lines[1][0] === big).to.equal(true);
    }
  });

  it('does refuse a line longer than the limit and hold nothing after', () => {
    const splitter = new LineSplitter(12);
    expect(splitter.push(Buffer.from('{"a":1}\n{"b":"12345'), () => {})).to.equal(true);
    expect(splitter.push(Buffer.from('6789"}'), () => {})).to.equal(false);
    expect(splitter.pendingBytes).to.equal(0);
  });

  it('does not keep the caller\'s buffer: it may be reused once push returns', () => {
    const chunk = Buffer.from('{"a":"xy');
    const splitter = new LineSplitter(1 << 20);
    const lines: string[] = [];
    splitter.push(chunk, (l) => lines.push(l));
    chunk.fill(0x20);
    splitter.push(Buffer.from('z"}\n'), (l) => lines.push(l));
    expect(lines).to.deep.equal(['{"a":"xyz"}']);
  });
});
