// The differential suite: every scenario runs against kubekit's embedded API server and against the real
// kube-apiserver (built from the official Go modules by @kubekit/envtest); the normalised transcripts must
// be identical, or the difference must be in allowlist.ts with its reason. Without Go on PATH the real
// server's recorded transcripts (fixtures/reference.json, written with KUBEKIT_DIFFERENTIAL_RECORD=1)
// stand in for it.
import { expect } from 'chai';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { allowedDifferences } from './allowlist.js';
import { referenceAvailable, startKubekit, startReference, type Backend, type ServerSet } from './backends.js';
import { canonical, firstDifference, normalizeSteps, type Step } from './normalize.js';
import { scenarios, type Scenario } from './scenarios.js';
import { Session } from './session.js';

const fixtureFile = new URL('./fixtures/reference.json', import.meta.url);
interface Recording { version: string; scenarios: Record<string, Step[]> }

const live = referenceAvailable();
const recording: Recording | undefined = !live && existsSync(fixtureFile) ? (JSON.parse(readFileSync(fixtureFile, 'utf8')) as Recording) : undefined;
const record = live && process.env.KUBEKIT_DIFFERENTIAL_RECORD === '1';

async function transcript(backend: Backend, scenario: Scenario): Promise<Step[]> {
  const s = new Session(backend);
  try {
    await scenario.run(s);
  } catch (err) {
    s.steps.push({ label: 'scenario failed', error: String((err as Error).message).replace(/^(kubekit|reference): /, '') });
  } finally {
    s.close();
  }
  return normalizeSteps(s.steps, { managedFields: scenario.managedFields });
}

/** Step labels whose normalised content differs (or `*` when the transcripts do not line up). */
function differingSteps(a: Step[], b: Step[]): string[] {
  if (a.length !== b.length) return ['*'];
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i].label !== b[i].label) return ['*'];
    if (canonical(a[i]) !== canonical(b[i])) out.push(a[i].label);
  }
  return out;
}

describe('the differential allow-list', () => {
  it('names distinct, existing scenarios, each with a reason', () => {
    const known = new Set(scenarios.map((s) => s.name));
    const listed = allowedDifferences.map((a) => a.scenario);
    expect(listed.filter((name) => !known.has(name)), 'allow-list entries naming no scenario').to.deep.equal([]);
    expect(listed.filter((name, i) => listed.indexOf(name) !== i), 'scenarios listed twice (only the first entry would count)').to.deep.equal([]);
    expect(allowedDifferences.filter((a) => a.reason.trim() === '').map((a) => a.scenario), 'entries without a reason').to.deep.equal([]);
    expect(allowedDifferences.filter((a) => a.steps !== undefined && a.steps.length === 0).map((a) => a.scenario), 'entries with an empty step list').to.deep.equal([]);
  });
});

describe(`differential: kubekit's embedded server vs the real kube-apiserver (${live ? 'live' : 'recorded answers'})`, function () {
  this.timeout(60 * 60_000);
  const servers = new Map<string, Backend>();
  const results: { name: string; verdict: 'identical' | 'allowed' | 'differs'; note?: string }[] = [];
  const recorded: Record<string, Step[]> = {};
  const mineAll: Record<string, Step[]> = {};
  let referenceVersion = '';

  before(async function () {
    if (!live && recording === undefined) this.skip();
    const sets = new Set<ServerSet>(scenarios.map((s) => s.servers ?? 'default'));
    for (const set of sets) {
      servers.set(`kubekit/${set}`, await startKubekit(set));
      if (live) servers.set(`reference/${set}`, await startReference(set));
    }
    referenceVersion = live ? servers.get('reference/default')?.version ?? servers.get('reference/gateOff')!.version : recording!.version;
  });

  after(async function () {
    await Promise.all([...servers.values()].map((b) => b.close()));
    if (results.length === 0) return;
    const identical = results.filter((r) => r.verdict === 'identical').length;
    const allowed = results.filter((r) => r.verdict === 'allowed').length;
    process.stdout.write(`differential: ${results.length} scenarios, ${identical} identical, ${results.length - identical} differ (${allowed} allow-listed)\n`);
    // KUBEKIT_DIFFERENTIAL_DUMP=<dir>: both sides' transcripts, for reading differences whole.
    const dump = process.env.KUBEKIT_DIFFERENTIAL_DUMP;
    if (dump !== undefined) {
      writeFileSync(`${dump}/kubekit.json`, `${JSON.stringify(mineAll, null, 1)}\n`);
      writeFileSync(`${dump}/reference.json`, `${JSON.stringify(live ? recorded : recording?.scenarios ?? {}, null, 1)}\n`);
    }
    if (record) {
      writeFileSync(fixtureFile, `${JSON.stringify({ version: referenceVersion, scenarios: recorded }, null, 1)}\n`);
      process.stdout.write(`differential: recorded the reference transcripts into ${fixtureFile.pathname}\n`);
    }
  });

  for (const scenario of scenarios) {
    it(`does answer ${scenario.name} as the real kube-apiserver does`, async function () {
      const set = scenario.servers ?? 'default';
      const kubekit = servers.get(`kubekit/${set}`)!;
      let reference: Step[];
      let mine: Step[];
      if (live) {
        [mine, reference] = await Promise.all([transcript(kubekit, scenario), transcript(servers.get(`reference/${set}`)!, scenario)]);
        recorded[scenario.name] = reference;
      } else {
        const r = recording!.scenarios[scenario.name];
        if (r === undefined) this.skip();
        reference = r;
        mine = await transcript(kubekit, scenario);
      }
      mineAll[scenario.name] = mine;
      const differing = differingSteps(mine, reference);
      const allow = allowedDifferences.find((a) => a.scenario === scenario.name);
      if (differing.length === 0) {
        results.push({ name: scenario.name, verdict: 'identical' });
        process.stdout.write(`      differential: ${scenario.name}: identical${allow ? ' (its allow-list entry is no longer needed)' : ''}\n`);
        if (allow) expect.fail(`${scenario.name}: kubekit now answers it as the real kube-apiserver does; remove its entry from test/differential/allowlist.ts`);
        return;
      }
      const covered = allow !== undefined && (allow.steps === undefined || (!differing.includes('*') && differing.every((d) => allow.steps!.includes(d))));
      const diff = firstDifference(canonical(reference), canonical(mine));
      // An allow-listed step that no longer differs is a stale excuse: it would hide the next difference there.
      const stale = covered && allow.steps !== undefined ? allow.steps.filter((label) => !differing.includes(label)) : [];
      if (stale.length > 0) {
        results.push({ name: scenario.name, verdict: 'differs' });
        process.stdout.write(`      differential: ${scenario.name}: allow-listed steps no longer differ: ${stale.join(', ')}\n`);
        expect.fail(`${scenario.name}: the allow-list names steps that are now identical (or no longer exist): ${stale.join(', ')}; remove them from test/differential/allowlist.ts`);
      }
      if (covered) {
        results.push({ name: scenario.name, verdict: 'allowed', note: allow.reason });
        process.stdout.write(`      differential: ${scenario.name}: differs in ${differing.join(', ')} (allow-listed: ${allow.reason})\n`);
        return;
      }
      results.push({ name: scenario.name, verdict: 'differs' });
      process.stdout.write(`      differential: ${scenario.name}: DIFFERS in ${differing.join(', ')}\n`);
      expect.fail(`${scenario.name}: kubekit (+) differs from the real kube-apiserver (-) in steps ${differing.join(', ')}:\n${diff}`);
    });
  }
});
