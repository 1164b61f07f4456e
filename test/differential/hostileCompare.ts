/**
 * Comparing a hostile case on two backends (hostile.test.ts): both normalised transcripts, the differing
 * steps with their classes (`json patch: status 422 vs 200`, `state: body`, …), shrinking by dropping
 * requests while the first class stays, and the printed report.
 */
import type { Backend } from './backends.js';
import type { HostileDifference } from './hostileAllowlist.js';
import { runHostileCase, setupHostile, withNamespace, type HostileCase } from './hostileCase.js';
import { normalizeSteps, type Step } from './normalize.js';
import { Session } from './session.js';
import { diffSteps } from './stepDiff.js';

/** Sets up a backend for hostile cases (the CRD and the canaries). */
export async function prepare(backend: Backend): Promise<void> {
  const s = new Session(backend);
  try {
    await setupHostile(s);
  } finally {
    s.close();
  }
}

export async function hostileTranscript(backend: Backend, c: HostileCase): Promise<Step[]> {
  const s = new Session(backend);
  try {
    await runHostileCase(s, c);
  } catch (err) {
    s.steps.push({ label: 'case failed', error: String((err as Error).message).replace(/^(kubekit|reference): /, '') });
  } finally {
    await releaseServices(s, c.ns).catch(() => undefined);
    s.close();
  }
  return normalizeSteps(s.steps);
}

/**
 * Deletes the Services of a played case, unrecorded: its namespace is never removed on the reference (which
 * runs no namespace controller), and each Service holds one of the reference's 254 cluster IPs, so a
 * campaign found the range full after about 250 cases (seed 20261129) and every later setup failed.
 */
async function releaseServices(s: Session, ns: string): Promise<void> {
  const list = (await s.raw('GET', `/api/v1/namespaces/${ns}/services`)).body as { items?: { metadata: { name: string } }[] } | undefined;
  for (const item of list?.items ?? []) await s.raw('DELETE', `/api/v1/namespaces/${ns}/services/${encodeURIComponent(item.metadata.name)}`);
}

/** The class of a step label: the request's kind, or `state`/`canary`. */
export function hostileOp(label: string): string {
  const m = /^(state|canary|case failed)\b/.exec(label);
  return m ? m[1] : label.split(':')[0];
}


export interface HostileOutcome { mine: Step[]; reference: Step[]; differences: HostileDifference[]; classes: string[] }

export async function compareHostile(kubekit: Backend, reference: Backend, c: HostileCase): Promise<HostileOutcome> {
  const [mine, ref] = await Promise.all([hostileTranscript(kubekit, c), hostileTranscript(reference, c)]);
  // What follows a different status (its state reads, the next requests) is its consequence.
  const { steps, classes } = diffSteps(mine, ref, hostileOp);
  return { mine, reference: ref, differences: steps.map((d) => ({ ...d, case: c })), classes };
}

/** Shrinks a case by dropping requests while the first differing class stays (bounded by `budget` replays). */
export async function shrinkHostile(kubekit: Backend, reference: Backend, c: HostileCase, first: string, budget: number): Promise<{ c: HostileCase; o?: HostileOutcome; replays: number }> {
  let best = c;
  let outcome: HostileOutcome | undefined;
  let replays = 0;
  let progress = true;
  while (progress && replays < budget && best.requests.length > 1) {
    progress = false;
    for (let i = 0; i < best.requests.length && replays < budget; i++) {
      const candidate = withNamespace({ ...best, requests: best.requests.filter((_, j) => j !== i) }, `${c.ns}-s${replays++}`);
      const o = await compareHostile(kubekit, reference, candidate);
      if (o.classes[0] === first) { best = candidate; outcome = o; progress = true; break; }
    }
  }
  return { c: best, o: outcome, replays };
}

const short = (v: unknown): string => { const t = JSON.stringify(v) ?? String(v); return t.length > 1500 ? `${t.slice(0, 1500)}…(${t.length} chars)` : t; };

export function hostileReport(c: HostileCase, o: HostileOutcome): string {
  const lines = [`seed ${c.seed}, case ${c.index}, namespace ${c.ns}`];
  for (const [i, q] of c.requests.entries()) lines.push(`request ${i}: ${q.method} ${q.path}${q.contentType ? ` (${q.contentType})` : ''}: ${q.bodyBase64 !== undefined ? `base64 ${q.bodyBase64}` : short(q.body)}`);
  for (const d of o.differences) lines.push(`step ${d.label}:`, `  reference: ${short(d.reference)}`, `  kubekit:   ${short(d.kubekit)}`);
  return lines.join('\n');
}
