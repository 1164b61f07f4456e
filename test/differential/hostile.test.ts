// The hostile differential suite: generated hostile requests (hostileCase.ts: malformed and prototype-keyed
// JSON patches, merge patches, updates, server-side apply, invalid metadata, query garbage, wrong content
// types and methods) played against kubekit's embedded API server and the real kube-apiserver; the
// normalised transcripts (answers, then the state of the objects involved and of a canary namespace) must be
// identical, or every differing step must fall in a class of hostileAllowlist.ts. kubekit's server runs in
// this process, so after every case Object.prototype (and the other built-in prototypes) must be unchanged.
//
// `npm test` runs a small fixed set; KUBEKIT_DIFFERENTIAL_HOSTILE=<count> and KUBEKIT_DIFFERENTIAL_SEED=<seed>
// run a campaign, KUBEKIT_DIFFERENTIAL_CONCURRENCY=<n> (default 2) plays n cases at once,
// KUBEKIT_DIFFERENTIAL_HOSTILE_LOG=<file> appends one JSON line per differing case,
// KUBEKIT_DIFFERENTIAL_CASES=<n,m,…> replays only those cases of the seed's run, and
// KUBEKIT_DIFFERENTIAL_REPLAY=<log file> the differing cases a campaign logged.
//
// Without Go the suite is skipped, saying so: generated cases have no recorded answers.
import { expect } from 'chai';
import { appendFileSync, readFileSync } from 'node:fs';
import { referenceAvailable, startKubekit, startReference, type Backend } from './backends.js';
import { allowedHostileDifferences } from './hostileAllowlist.js';
import { generateHostileCase, type HostileCase } from './hostileCase.js';
import { compareHostile, hostileReport, prepare, shrinkHostile } from './hostileCompare.js';
import { DifferenceTally } from './stepDiff.js';

const count = Number(process.env.KUBEKIT_DIFFERENTIAL_HOSTILE ?? 30);
const seed = Number(process.env.KUBEKIT_DIFFERENTIAL_SEED ?? 20261126);
const concurrency = Math.max(1, Number(process.env.KUBEKIT_DIFFERENTIAL_CONCURRENCY ?? 2));
const shrinkBudget = Number(process.env.KUBEKIT_DIFFERENTIAL_SHRINK ?? 8);
const log = process.env.KUBEKIT_DIFFERENTIAL_HOSTILE_LOG;
const only = process.env.KUBEKIT_DIFFERENTIAL_CASES?.split(',').map(Number);
const replayFile = process.env.KUBEKIT_DIFFERENTIAL_REPLAY;
const replayed = replayFile === undefined ? undefined : readFileSync(replayFile, 'utf8').split('\n').filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { index: number; case?: HostileCase }).filter((e) => e.case !== undefined);
const indices = replayed?.map((e) => e.index) ?? only ?? Array.from({ length: count }, (_, i) => i);
const caseOf = (index: number, position: number): HostileCase => {
  if (replayed === undefined) return generateHostileCase(seed, index);
  const c = replayed[position].case!;
  return { ...c, ns: `${c.ns}-r${Date.now().toString(36)}` };
};
const live = referenceAvailable();

/** The own property names of the built-in prototypes a polluting write would reach. */
function prototypes(): string {
  const protos: [string, object][] = [['Object', Object.prototype], ['Array', Array.prototype], ['Function', Function.prototype], ['String', String.prototype], ['Number', Number.prototype]];
  return protos.map(([n, p]) => `${n}: ${Reflect.ownKeys(p).map(String).sort().join(',')}`).join('\n');
}

describe(`differential, hostile: ${indices.length} ${replayFile === undefined ? `generated cases (seed ${seed})` : `cases replayed from ${replayFile}`}`, function () {
  this.timeout(24 * 60 * 60_000);
  let kubekit: Backend | undefined;
  let reference: Backend | undefined;
  const tally = new DifferenceTally();
  let ran = 0;

  before(async function () {
    if (!live) {
      process.stdout.write('      differential, hostile: SKIPPED: the real kube-apiserver cannot be built here (no Go on PATH, or KUBEKIT_DIFFERENTIAL=fixtures), and generated cases have no recorded answers\n');
      this.skip();
    }
    [kubekit, reference] = await Promise.all([startKubekit(), startReference()]);
    await Promise.all([prepare(kubekit), prepare(reference)]);
  });

  after(async function () {
    await Promise.all([kubekit?.close(), reference?.close()]);
    if (ran === 0) return;
    for (const line of tally.lines('hostile', seed, ran)) process.stdout.write(`${line}\n`);
  });

  it('answers every hostile case as the real kube-apiserver does (or as allow-listed), and pollutes no prototype', async function () {
    const failures: string[] = [];
    const pristine = prototypes();
    let next = 0;
    const worker = async () => {
      for (;;) {
        if (next >= indices.length) return;
        const position = next++;
        const index = indices[position];
        const c = caseOf(index, position);
        let o = await compareHostile(kubekit!, reference!, c);
        ran++;
        const now = prototypes();
        if (now !== pristine) failures.push(`case ${index}: a built-in prototype changed (prototype pollution in kubekit's server):\n${now}`);
        if (indices.length >= 200 && ran % 100 === 0) process.stdout.write(`      differential, hostile: ${ran}/${indices.length} cases, ${tally.differing} differ\n`);
        if (o.differences.length === 0) continue;
        const allowedBy = o.differences.map((d) => allowedHostileDifferences.find((a) => a.matches(d)));
        const allowed = allowedBy.every((a) => a !== undefined);
        tally.count(o.classes, allowed);
        if (allowed) {
          if (log !== undefined) appendFileSync(log, `${JSON.stringify({ seed, index, classes: o.classes, allowed: [...new Set(allowedBy.map((a) => a!.name))] })}\n`);
          continue;
        }
        let shown = c;
        if (shrinkBudget > 0 && c.requests.length > 1) {
          const s = await shrinkHostile(kubekit!, reference!, c, o.classes[0], shrinkBudget);
          if (s.o !== undefined) { shown = s.c; o = s.o; }
        }
        const text = hostileReport(shown, o);
        process.stdout.write(`      differential, hostile: case ${index} DIFFERS (${o.classes.join('; ')})\n${text.replace(/^/gm, '        ')}\n`);
        if (log !== undefined) appendFileSync(log, `${JSON.stringify({ seed, index, classes: o.classes, case: shown, differences: o.differences.map((d) => ({ label: d.label, reference: d.reference, kubekit: d.kubekit })) })}\n`);
        failures.push(`case ${index}: ${o.classes.join('; ')}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    expect(failures, `kubekit differs from the real kube-apiserver (seed ${seed}; details above)`).to.deep.equal([]);
  });
});
