// What the watch decoder's check for long digit runs (`hasLongDigitRun`: a run of 16 or more digits may hold
// an integer beyond 2^53, which JSON.parse would round) costs per chunk, on the chunk's UTF-8 bytes (what the
// decoder passes now) against the decoded text (what it passed before), with the decode itself and a
// regular expression (`/\d{16}/`) as baselines, measured in the same process over the same 64 KB chunk of
// watch lines of about 1.3 KB each, as CPU ms per 200 MB, medians of rounds.
//
// Usage: node --import tsx --conditions=kubekit-source bench/informer/digitRun.ts [--rounds 7]
import { parseArgs } from 'node:util';
import { hasLongDigitRun } from '@kubekit/core';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
const rounds = Number(values.rounds);
const object = {
  apiVersion: 'stable.example.com/v1', kind: 'Shirt',
  metadata: {
    name: 'shirt-000123', namespace: 'team-3', uid: '6f1c2a8e-1234-4c5d-9e8f-0123456789ab', resourceVersion: '1234567', generation: 3,
    creationTimestamp: '2026-11-27T00:00:00Z', labels: { color: 'blue', size: 'M' }, annotations: { 'example.com/note': 'x'.repeat(200) },
    managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'stable.example.com/v1', time: '2026-11-27T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:color': {}, 'f:size': {} } } }],
  },
  spec: { color: 'blue', size: 'M', replicas: 3, text: 'y'.repeat(500) },
};
const line = `${JSON.stringify({ type: 'MODIFIED', object })}\n`;
const chunk = Buffer.from(line.repeat(Math.ceil(65_536 / line.length)));
const times = Math.ceil(200e6 / chunk.length);

function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const series: Record<string, number[]> = { decode: [], 'decode + text check': [], 'bytes check': [], 'decode + /\\d{16}/': [] };
let found = 0;
for (let r = 0; r < rounds; r++) {
  series.decode.push(cpuMs(() => { for (let i = 0; i < times; i++) found += chunk.toString('utf8').length & 1; }));
  series['decode + text check'].push(cpuMs(() => { for (let i = 0; i < times; i++) found += hasLongDigitRun(chunk.toString('utf8')) ? 1 : 0; }));
  series['bytes check'].push(cpuMs(() => { for (let i = 0; i < times; i++) found += hasLongDigitRun(chunk) ? 1 : 0; }));
  series['decode + /\\d{16}/'].push(cpuMs(() => { for (let i = 0; i < times; i++) found += /\d{16}/.test(chunk.toString('utf8')) ? 1 : 0; }));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const decode = median(series.decode);
console.log(`node ${process.version}; ${times} × a ${chunk.length}-byte chunk (${Math.round((times * chunk.length) / 1e6)} MB), ${rounds} rounds, CPU ms medians (found ${found})`);
console.log(`decode alone             ${decode.toFixed(0).padStart(6)} ms`);
console.log(`check on the text        ${(median(series['decode + text check']) - decode).toFixed(0).padStart(6)} ms (after the decode)`);
console.log(`check on the bytes       ${median(series['bytes check']).toFixed(0).padStart(6)} ms (×text ${(median(series['bytes check']) / (median(series['decode + text check']) - decode)).toFixed(2)})`);
console.log(`/\\d{16}/ on the text     ${(median(series['decode + /\\d{16}/']) - decode).toFixed(0).padStart(6)} ms (after the decode)`);
