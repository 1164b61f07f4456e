/**
 * Comparing a generated case on two backends (randomized.test.ts): both transcripts, the differing
 * steps with their classes (`create: status 422 vs 201`, `merge patch: body`, …), greedy shrinking of
 * the case's objects while the first class stays, the printed report, and the fingerprint of a case
 * that ties a recorded transcript to the case it was recorded for.
 */
import { createHash } from 'node:crypto';
import type { Backend } from './backends.js';
import { normalizeSteps, type Step } from './normalize.js';
import type { StepDifference } from './randomAllowlist.js';
import { runCase, withSlug, type RandomCase } from './randomCase.js';
import { Session } from './session.js';
import { diffSteps } from './stepDiff.js';

export async function transcript(backend: Backend, c: RandomCase): Promise<Step[]> {
  const s = new Session(backend);
  try {
    await runCase(s, c);
  } catch (err) {
    s.steps.push({ label: 'case failed', error: String((err as Error).message).replace(/^(kubekit|reference): /, '') });
  } finally {
    s.close();
  }
  // The apiserver walks a CRD's schema properties in Go map order: its format warnings come in any order.
  for (const st of s.steps) if (st.label === 'create CRD' && Array.isArray(st.warnings)) st.warnings = [...(st.warnings as string[])].sort();
  return normalizeSteps(s.steps);
}

/** The operation of a step label: its first word(s) without object names and queries. */
export function opOf(label: string): string {
  const m = /^(create CRD|create|get|update|merge patch|delete|list|watch|case failed)/.exec(label);
  return m ? m[1] : label;
}

export interface Outcome { mine: Step[]; reference: Step[]; differences: StepDifference[]; classes: string[] }

export async function compare(kubekit: Backend, reference: Backend, c: RandomCase): Promise<Outcome> {
  const [mine, ref] = await Promise.all([transcript(kubekit, c), transcript(reference, c)]);
  return differ(mine, ref, c);
}

/** The case on kubekit against the reference's recorded transcript of it (machines without Go). */
export async function compareRecorded(kubekit: Backend, ref: Step[], c: RandomCase): Promise<Outcome> {
  return differ(await transcript(kubekit, c), ref, c);
}

/** Where kubekit's transcript of a case differs from the reference's, up to the first different status. */
function differ(mine: Step[], ref: Step[], c: RandomCase): Outcome {
  const { steps, classes } = diffSteps(mine, ref, opOf);
  // (A step missing on one side is typed as present, as the allow-list's matchers read both.)
  const differences = steps.map((d): StepDifference => ({ ...d, kubekit: d.kubekit as Step, reference: d.reference as Step, case: c }));
  return { mine, reference: ref, differences, classes };
}

/** Smaller variants of a case: one key or array item less in one of its objects, the update or the patch. */
export function* smaller(c: RandomCase): Generator<RandomCase> {
  const docs: { get: (x: RandomCase) => unknown }[] = [
    ...c.objects.map((_, i) => ({ get: (x: RandomCase) => x.objects[i].body })),
    { get: (x: RandomCase) => x.update.body },
    { get: (x: RandomCase) => x.patch.body },
  ];
  for (const d of docs) {
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, path: (string | number)[]) => {
      if (Array.isArray(v)) v.forEach((x, i) => { paths.push([...path, i]); walk(x, [...path, i]); });
      else if (v !== null && typeof v === 'object') {
        for (const k of Object.keys(v)) {
          if (path.length === 0 && ['apiVersion', 'kind', 'metadata'].includes(k)) continue;
          paths.push([...path, k]);
          walk((v as Record<string, unknown>)[k], [...path, k]);
        }
      }
    };
    walk(d.get(c), []);
    for (const p of paths) {
      const copy = JSON.parse(JSON.stringify(c)) as RandomCase;
      let parent = d.get(copy) as Record<string | number, unknown>;
      for (const k of p.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
      const last = p[p.length - 1];
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      yield copy;
    }
  }
}

/** Greedily drops parts of the objects while the first differing class stays (bounded by `shrinkBudget` replays). */
export async function shrink(kubekit: Backend, reference: Backend, c: RandomCase, first: string, shrinkBudget: number): Promise<{ c: RandomCase; o?: Outcome; replays: number }> {
  let best = c;
  let outcome: Outcome | undefined;
  let replays = 0;
  let progress = true;
  while (progress && replays < shrinkBudget) {
    progress = false;
    for (const candidate of smaller(best)) {
      if (replays >= shrinkBudget) break;
      const replay = withSlug(candidate, `${c.slug}-s${replays++}`);
      const o = await compare(kubekit, reference, replay);
      if (o.classes[0] === first) { best = candidate; outcome = o; progress = true; break; }
    }
  }
  return { c: best, o: outcome, replays };
}

export function report(c: RandomCase, index: number, o: Outcome): string {
  const lines = [`seed ${c.seed}, case ${index}${c.crdFault ? ` (CRD fault: ${c.crdFault})` : ''}`, `CRD: ${JSON.stringify(c.crd.spec.versions[0])}`, `scope: ${c.scope}`];
  for (const ob of c.objects) lines.push(`${ob.name}${ob.query}: ${JSON.stringify(ob.body)}`);
  lines.push(`update${c.update.query}: ${JSON.stringify(c.update.body)}`, `merge patch${c.patch.query}: ${JSON.stringify(c.patch.body)}`, `selectors: ${JSON.stringify(c.selectors)}`);
  for (const d of o.differences) lines.push(`step ${d.label}:`, `  reference: ${JSON.stringify(d.reference)}`, `  kubekit:   ${JSON.stringify(d.kubekit)}`);
  return lines.join('\n');
}

/** A short hash of a generated case: recorded answers are for the case with this fingerprint only. */
export function fingerprint(c: RandomCase): string {
  return createHash('sha256').update(JSON.stringify(c)).digest('hex').slice(0, 16);
}

/** The seed of the fixed set `npm test` runs (24 cases unless KUBEKIT_DIFFERENTIAL_RANDOM says otherwise). */
export const fixedSeed = 20261126;

/** The reference's transcripts of the fixed set's cases, by case number, for machines without Go. */
export interface RandomRecording { version: string; seed: number; cases: Record<string, { fingerprint: string; steps: Step[] }> }
export const randomFixtureFile = new URL('./fixtures/randomized-reference.json', import.meta.url);
