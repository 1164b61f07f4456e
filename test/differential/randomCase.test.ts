// The randomized differential suite's own parts, without servers: the generator is a pure function of
// (seed, case number), its cases cover what the suite claims to cover, the shrinker only ever removes,
// and the answer normalisation keeps what a client relies on.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { answer, generateCase, withSlug, type RandomCase } from './randomCase.js';
import { fingerprint, fixedSeed, opOf, randomFixtureFile, smaller, type RandomRecording } from './randomCompare.js';
import { allowedRandomDifferences } from './randomAllowlist.js';

const size = (c: RandomCase): number => JSON.stringify([c.objects, c.update, c.patch]).length;

describe('generateCase', () => {
  it('is a function of the seed and the case number alone', () => {
    expect(generateCase(7, 3)).to.deep.equal(generateCase(7, 3));
    expect(generateCase(7, 3)).to.not.deep.equal(generateCase(7, 4));
    expect(generateCase(7, 3)).to.not.deep.equal(generateCase(8, 3));
  });

  it('covers the schema features, faults and operations the suite is for, over 300 cases', () => {
    const seen = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) { v.forEach(walk); return; }
      if (v === null || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) { seen.add(k); walk(x); }
    };
    let faultyCRDs = 0;
    const selectorOps = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const c = generateCase(11, i);
      walk(c.crd.spec.versions[0]);
      if (c.crdFault !== undefined) faultyCRDs++;
      for (const s of c.selectors) for (const m of s.matchAll(/(!=|==|=)/g)) selectorOps.add(m[1]);
    }
    for (const k of ['additionalProperties', 'items', 'x-kubernetes-preserve-unknown-fields', 'default', 'enum', 'minimum', 'maxLength', 'pattern', 'format', 'required', 'nullable', 'x-kubernetes-int-or-string', 'x-kubernetes-validations', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-embedded-resource', 'selectableFields']) {
      expect(seen.has(k), k).to.equal(true);
    }
    expect(faultyCRDs).to.be.within(15, 90);
    expect([...selectorOps].sort()).to.deep.equal(['!=', '=', '==']);
  });

  it('generates thousands of cases without failing (a generator error would stop a campaign)', () => {
    for (const seed of [1, 5, 9]) for (let i = 0; i < 1000; i++) expect(() => generateCase(seed, i), `seed ${seed} case ${i}`).to.not.throw();
  });

  it('replays a case under another group, changing nothing else', () => {
    const c = generateCase(5, 1);
    const r = withSlug(c, 'other');
    expect(r.crd.spec.group).to.equal('other.rand.example.com');
    expect(r.crd.metadata.name).to.equal('things.other.rand.example.com');
    expect(JSON.stringify(withSlug(r, c.slug))).to.equal(JSON.stringify(c));
  });
});

describe('smaller', () => {
  it('yields variants with one key or array item less, never touching apiVersion, kind or metadata', () => {
    const c = generateCase(3, 2);
    let n = 0;
    for (const v of smaller(c)) {
      n++;
      expect(size(v)).to.be.below(size(c));
      for (const [i, o] of v.objects.entries()) expect([o.body.apiVersion, o.body.kind, o.body.metadata]).to.deep.equal([c.objects[i].body.apiVersion, c.objects[i].body.kind, c.objects[i].body.metadata]);
      expect(v.crd).to.deep.equal(c.crd);
    }
    expect(n).to.be.above(0);
  });
});

describe('answer', () => {
  it('sorts causes and stands in for a message listing several, keeping one that lists one', () => {
    const status = (causes: { field: string; message: string }[], message: string) => ({ kind: 'Status', code: 422, reason: 'Invalid', message, details: { causes } });
    const a = answer(status([{ field: 'b', message: 'x' }, { field: 'a', message: 'y' }], 'T "o" is invalid: [b: x, a: y]'));
    const b = answer(status([{ field: 'a', message: 'y' }, { field: 'b', message: 'x' }], 'T "o" is invalid: [a: y, b: x]'));
    expect(a).to.deep.equal(b);
    expect(a).to.deep.include({ message: 'T "o" is invalid: [2 errors]' });
    expect(answer(status([{ field: 'a', message: 'y' }], 'T "o" is invalid: a: y'))).to.deep.include({ message: 'T "o" is invalid: a: y' });
    expect(answer(status([{ field: 'a', message: 'y' }], 'T "o" is invalid: a: y'))).to.not.deep.equal(answer(status([{ field: 'a', message: 'z' }], 'T "o" is invalid: a: z')));
  });

  it('masks the server-made fields of an object quoted in a message, and nothing else', () => {
    const quoted = (uid: string, color: string) => answer({ kind: 'Status', code: 422, reason: 'Invalid', message: `patch: Invalid value: "{\\"metadata\\":{\\"uid\\":\\"${uid}\\",\\"creationTimestamp\\":\\"2026-01-01T00:00:0${uid.length % 10}Z\\"},\\"spec\\":{\\"color\\":\\"${color}\\"}}": strict decoding error` });
    expect(quoted('u-1', 'red')).to.deep.equal(quoted('other-uid', 'red'));
    expect(quoted('u-1', 'red')).to.not.deep.equal(quoted('u-1', 'blue'));
  });

  it('keeps the body of a success as it is', () => {
    const body = { kind: 'Thing', spec: { a: 1 } };
    expect(answer(body)).to.equal(body);
  });
});

describe('opOf', () => {
  it('names the operation of a step label without object names and queries', () => {
    expect(opOf('create o2?fieldValidation=Strict')).to.equal('create');
    expect(opOf('create CRD')).to.equal('create CRD');
    expect(opOf('merge patch o1')).to.equal('merge patch');
    expect(opOf('list spec.a!=b (before)')).to.equal('list');
  });
});

describe('the randomized allow-list', () => {
  it('names each class once, with a reason', () => {
    const names = allowedRandomDifferences.map((a) => a.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).to.deep.equal([]);
    expect(allowedRandomDifferences.filter((a) => a.reason.trim().length < 40).map((a) => a.name)).to.deep.equal([]);
  });

  it('allows managed fields in a quoted object only for a schema with a typed int-or-string node', () => {
    const quoted = (managed: boolean, color = 'red') => ({ label: 'merge patch o1?fieldValidation=Strict', status: 422, body: { code: 422, reason: 'Invalid', message: `patch: Invalid value: "{\\"metadata\\":{\\"generation\\":2,${managed ? '\\"managedFields\\":[{\\"manager\\":\\"m\\"}],' : ''}\\"name\\":\\"o1\\"},\\"spec\\":{\\"c\\":\\"${color}\\"}}": strict decoding error` } });
    const entry = allowedRandomDifferences.find((a) => a.name === 'managed fields of an int-or-string node with a type')!;
    const typed = generateCase(1, 1);
    typed.crd.spec.versions[0].schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, type: 'string' } } } } } };
    const plain = generateCase(1, 1);
    plain.crd.spec.versions[0].schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true } } } } } };
    const d = (c: RandomCase, kubekit: ReturnType<typeof quoted>) => ({ op: 'merge patch', label: kubekit.label, kubekit, reference: quoted(false), case: c });
    expect(entry.matches(d(typed, quoted(true)))).to.equal(true);
    expect(entry.matches(d(plain, quoted(true)))).to.equal(false);
    expect(entry.matches(d(typed, quoted(true, 'blue')))).to.equal(false);
  });
});

describe('the recorded answers of the fixed set (fixtures/randomized-reference.json)', () => {
  // Machines without Go compare kubekit with these; a generator change that is not recorded again would
  // leave them comparing against answers to other cases (each would fail there, but only there).
  it('are for the cases the generator makes now, all 24 of them', () => {
    const recording = JSON.parse(readFileSync(randomFixtureFile, 'utf8')) as RandomRecording;
    expect(recording.seed).to.equal(fixedSeed);
    const stale = Object.entries(recording.cases).filter(([index, r]) => r.fingerprint !== fingerprint(generateCase(fixedSeed, Number(index)))).map(([index]) => index);
    expect(stale, 'record them again: KUBEKIT_DIFFERENTIAL_RECORD=1 npx mocha test/differential/randomized.test.ts (needs Go)').to.deep.equal([]);
    expect(Object.keys(recording.cases).map(Number)).to.deep.equal(Array.from({ length: 24 }, (_, i) => i));
  });
});
