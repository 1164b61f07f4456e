// Cost of matching a parsed field selector against a field set, against the equivalent label selector
// (same number of terms, same operators, same term order after parsing) matching labels, both warmed
// up, from one run; and the parse cost of each. The target: field matching costs no more than label
// matching.
//
// The two sides are timed in alternating short rounds and the ratio is the median of the per-round
// ratios, so that load from other processes on a shared machine hits both sides alike.
//
// Run: node --import tsx --conditions=kubekit-source bench/selectors/selectors.ts
import { parseFieldSelector, parseLabelSelector } from '@kubekit/selectors';

// Field labels as a custom resource's field set has them, and label keys that sort in the same order,
// so that both selectors test their terms in the same sequence.
const fieldKeys = ['metadata.name', 'metadata.namespace', 'spec.color', 'spec.owner', 'spec.size', 'spec.tier', 'spec.zone', 'status.phase'];
const labelKeys = fieldKeys.map((k) => k.replace('.', '-'));
const colors = ['blue', 'red', 'green'];
const objects = 2000;

/**
 * Term `k` of a selector with `terms` terms: the last term tells the objects apart (a third match),
 * so a match evaluates every term and a miss fails at the last one.
 */
function value(k: number, terms: number, i: number): string {
  return k === terms - 1 ? colors[i % 3] : `value-${k}`;
}

/** Objects as they arrive: values are fresh (not interned) strings, as JSON decoding makes them. */
function sets(keys: readonly string[], terms: number): Record<string, string>[] {
  return Array.from({ length: objects }, (_, i) => {
    const s: Record<string, string> = {};
    keys.forEach((key, k) => {
      s[key] = value(k, terms, i).split('').join('');
    });
    return s;
  });
}

function text(keys: readonly string[], terms: number, op: string, suffix = ''): string {
  return keys.slice(0, terms).map((key, k) => `${key}${op}${value(k, terms, 0)}`).join(',') + suffix;
}

interface Side<T> {
  name: string;
  inputs: readonly T[];
  fn: (input: T) => unknown;
}

interface Pair {
  a: string;
  b: string;
  aNs: number;
  bNs: number;
  ratio: number;
}

let sink: unknown;

function run<T>(side: Side<T>, ms: number): number {
  let calls = 0;
  const end = performance.now() + ms;
  const start = process.hrtime.bigint();
  do {
    for (const x of side.inputs) sink = side.fn(x);
    calls += side.inputs.length;
  } while (performance.now() < end);
  return Number(process.hrtime.bigint() - start) / calls;
}

function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

/** Times `a` and `b` in alternating rounds after a warm-up; medians of ns/op and of the ratio a/b. */
function paired<A, B>(a: Side<A>, b: Side<B>, rounds = 15, ms = 40): Pair {
  run(a, 150);
  run(b, 150);
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const x = r % 2 === 0 ? run(a, ms) : 0;
    const y = run(b, ms);
    const x2 = r % 2 === 0 ? x : run(a, ms);
    as.push(x2);
    bs.push(y);
    ratios.push(x2 / y);
  }
  return { a: a.name, b: b.name, aNs: median(as), bNs: median(bs), ratio: median(ratios) };
}

const lines: string[] = [];
function show(p: Pair): void {
  lines.push(`${p.a.padEnd(44)} ${p.aNs.toFixed(1).padStart(8)} ns   ${p.b.padEnd(44)} ${p.bNs.toFixed(1).padStart(8)} ns   ratio ${p.ratio.toFixed(2)}`);
}

const headline: Pair[] = [];
for (const op of ['=', '!=']) {
  for (const terms of [1, 2, 4, 8]) {
    const fieldSets = sets(fieldKeys, terms);
    const labelSets = sets(labelKeys, terms);
    const fieldSelector = parseFieldSelector(text(fieldKeys, terms, op));
    const labelSelector = parseLabelSelector(text(labelKeys, terms, op));
    const label: Side<Record<string, string>> = { name: `label ${op.padEnd(2)} ${terms} term(s): matches(labels)`, inputs: labelSets, fn: (s) => labelSelector.matches(s) };
    const p = paired({ name: `field ${op.padEnd(2)} ${terms} term(s): matches(record)`, inputs: fieldSets, fn: (s) => fieldSelector.matches(s) }, label);
    show(p);
    // Lazy field sets made beforehand, so that only the matching is timed.
    const getters = fieldSets.map((s) => (k: string): string | undefined => s[k]);
    show(paired({ name: `field ${op.padEnd(2)} ${terms} term(s): matches(getter)`, inputs: getters, fn: (g) => fieldSelector.matches(g) }, label));
    if (terms === 4) headline.push(p);
  }
}

const parseInputs = 500;
const fieldTexts = Array.from({ length: parseInputs }, (_, i) => text(fieldKeys, 4, '=', `,metadata.uid=u${i}`));
const labelTexts = Array.from({ length: parseInputs }, (_, i) => text(labelKeys, 4, '=', `,metadata-uid=u${i}`));
const parse = paired(
  { name: 'parseFieldSelector (5 terms)', inputs: fieldTexts, fn: (t) => parseFieldSelector(t) },
  { name: 'parseLabelSelector (5 terms)', inputs: labelTexts, fn: (t) => parseLabelSelector(t) },
  9,
  60,
);
show(parse);

for (const l of lines) console.log(l);
for (const p of headline) console.log(`ratio ${p.a} / ${p.b}: ${p.ratio.toFixed(2)}`);
console.log(`ratio parse field / label (5 terms): ${parse.ratio.toFixed(2)}`);
if (sink === Symbol.for('never')) console.log(sink);
