// The randomized differential suite: generated CRDs and objects (randomCase.ts) played against kubekit's
// embedded API server and the real kube-apiserver; the normalised transcripts must be identical, or every
// differing step must fall in a class of randomAllowlist.ts. `npm test` runs a small fixed set;
// KUBEKIT_DIFFERENTIAL_RANDOM=<count> and KUBEKIT_DIFFERENTIAL_SEED=<seed> run a campaign, and
// KUBEKIT_DIFFERENTIAL_RANDOM_LOG=<file> appends one JSON line per differing case to a file, and
// KUBEKIT_DIFFERENTIAL_CASES=<n,m,…> replays only those cases of the seed's run, and
// KUBEKIT_DIFFERENTIAL_REPLAY=<log file> the differing cases a campaign logged.
//
// Without Go, the fixed set (the default seed, any of its cases) is compared with the reference's
// transcripts recorded where Go is (fixtures/randomized-reference.json, written by a run of the fixed set
// with KUBEKIT_DIFFERENTIAL_RECORD=1); each recording names the case it is for by a fingerprint, so a
// changed generator is noticed (randomCase.test.ts checks that too, with or without Go). Campaigns need Go.
import { expect } from 'chai';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { referenceAvailable, startKubekit, startReference, type Backend } from './backends.js';
import { allowedRandomDifferences } from './randomAllowlist.js';
import { generateCase, type RandomCase } from './randomCase.js';
import { compare, compareRecorded, fingerprint, fixedSeed, randomFixtureFile, report, shrink, type Outcome, type RandomRecording } from './randomCompare.js';
import { DifferenceTally } from './stepDiff.js';

const count = Number(process.env.KUBEKIT_DIFFERENTIAL_RANDOM ?? 24);
const seed = Number(process.env.KUBEKIT_DIFFERENTIAL_SEED ?? fixedSeed);
const concurrency = Math.max(1, Number(process.env.KUBEKIT_DIFFERENTIAL_CONCURRENCY ?? 2));
const shrinkBudget = Number(process.env.KUBEKIT_DIFFERENTIAL_SHRINK ?? 25);
const log = process.env.KUBEKIT_DIFFERENTIAL_RANDOM_LOG;
/** KUBEKIT_DIFFERENTIAL_CASES=3,17: only these case numbers of the run (to replay a difference). */
const only = process.env.KUBEKIT_DIFFERENTIAL_CASES?.split(',').map(Number);
/**
 * KUBEKIT_DIFFERENTIAL_REPLAY=<file>: the cases logged in a campaign's log (its differing cases, as they
 * were generated then), instead of generated ones; they replay after the generator has changed.
 */
const replayFile = process.env.KUBEKIT_DIFFERENTIAL_REPLAY;
const replayed = replayFile === undefined ? undefined : readFileSync(replayFile, 'utf8').split('\n').filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { index: number; case?: RandomCase }).filter((e) => e.case !== undefined);
const indices = replayed?.map((e) => e.index) ?? only ?? Array.from({ length: count }, (_, i) => i);
const caseOf = (index: number, position: number): RandomCase => (replayed === undefined ? generateCase(seed, index) : replayed[position].case!);
const live = referenceAvailable();

const fixedSet = seed === fixedSeed && process.env.KUBEKIT_DIFFERENTIAL_RANDOM === undefined && replayFile === undefined && only === undefined;
const record = live && fixedSet && process.env.KUBEKIT_DIFFERENTIAL_RECORD === '1';
const recording = !live && seed === fixedSeed && replayFile === undefined && existsSync(randomFixtureFile)
  ? (JSON.parse(readFileSync(randomFixtureFile, 'utf8')) as RandomRecording) : undefined;

describe(`differential, randomized: ${indices.length} ${replayFile === undefined ? `generated cases (seed ${seed})` : `cases replayed from ${replayFile}`}${recording === undefined ? '' : ', against recorded answers'}`, function () {
  this.timeout(24 * 60 * 60_000);
  let kubekit: Backend | undefined;
  let reference: Backend | undefined;
  const tally = new DifferenceTally();
  let ran = 0;
  const recorded: RandomRecording['cases'] = {};

  before(async function () {
    if (!live && recording === undefined) {
      process.stdout.write(`      differential, randomized: SKIPPED: the real kube-apiserver cannot be built here (no Go on PATH, or KUBEKIT_DIFFERENTIAL=fixtures), and only the fixed set (seed ${fixedSeed}) has recorded answers\n`);
      this.skip();
    }
    if (live) [kubekit, reference] = await Promise.all([startKubekit(), startReference()]);
    else kubekit = await startKubekit();
  });

  after(async function () {
    if (record && reference !== undefined && Object.keys(recorded).length === indices.length) {
      const cases = Object.fromEntries(Object.entries(recorded).sort((a, b) => Number(a[0]) - Number(b[0])));
      writeFileSync(randomFixtureFile, `${JSON.stringify({ version: reference.version, seed, cases } satisfies RandomRecording, null, 1)}\n`);
      process.stdout.write(`differential, randomized: recorded the reference transcripts into ${randomFixtureFile.pathname}\n`);
    }
    await Promise.all([kubekit?.close(), reference?.close()]);
    if (ran === 0) return;
    for (const line of tally.lines('randomized', seed, ran)) process.stdout.write(`${line}\n`);
  });

  it('answers every generated case as the real kube-apiserver does (or as allow-listed)', async function () {
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      for (;;) {
        if (next >= indices.length) return;
        const position = next++;
        const index = indices[position];
        const c = caseOf(index, position);
        let o: Outcome;
        if (reference !== undefined) {
          o = await compare(kubekit!, reference, c);
          if (record) recorded[index] = { fingerprint: fingerprint(c), steps: o.reference };
        } else {
          const r = recording!.cases[index];
          if (r === undefined || r.fingerprint !== fingerprint(c)) {
            failures.push(`case ${index}: ${r === undefined ? 'has no recorded answers' : 'the recorded answers are for another case (the generator changed)'}: record them again with KUBEKIT_DIFFERENTIAL_RECORD=1 where Go is`);
            continue;
          }
          o = await compareRecorded(kubekit!, r.steps, c);
        }
        ran++;
        if (indices.length >= 200 && ran % 100 === 0) process.stdout.write(`      differential, randomized: ${ran}/${indices.length} cases, ${tally.differing} differ\n`);
        if (o.differences.length === 0) continue;
        const allowedBy = o.differences.map((d) => allowedRandomDifferences.find((a) => a.matches(d)));
        const allowed = allowedBy.every((a) => a !== undefined);
        tally.count(o.classes, allowed);
        if (allowed) {
          if (log !== undefined) appendFileSync(log, `${JSON.stringify({ seed, index, classes: o.classes, allowed: [...new Set(allowedBy.map((a) => a!.name))] })}\n`);
          continue;
        }
        let shown = c;
        let replays = 0;
        if (shrinkBudget > 0 && reference !== undefined) {
          const s = await shrink(kubekit!, reference!, c, o.classes[0], shrinkBudget);
          replays = s.replays;
          if (s.o !== undefined) { shown = s.c; o = s.o; }
        }
        const text = `${report(shown, index, o)}${replays > 0 ? `\n(shrunk with ${replays} replays; KUBEKIT_DIFFERENTIAL_SEED=${c.seed} KUBEKIT_DIFFERENTIAL_CASES=${index} replays the original with the generator that made it)` : ''}`;
        process.stdout.write(`      differential, randomized: case ${index} DIFFERS (${o.classes.join('; ')})\n${text.replace(/^/gm, '        ')}\n`);
        if (log !== undefined) appendFileSync(log, `${JSON.stringify({ seed, index, classes: o.classes, case: shown, differences: o.differences.map((d) => ({ label: d.label, reference: d.reference, kubekit: d.kubekit })) })}\n`);
        failures.push(`case ${index}: ${o.classes.join('; ')}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    expect(failures, `kubekit differs from the real kube-apiserver (seed ${seed}; details above)`).to.deep.equal([]);
  });
});
