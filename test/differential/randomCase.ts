/**
 * One randomized differential case: a generated CRD (sometimes with one deliberate mistake), three
 * objects (sometimes faulty), an update and a merge patch of the first, lists with field selectors on
 * selectable and non-selectable fields, and a short watch. `runCase` plays it against one backend and
 * records every answer as a step, exactly as the hand-written scenarios do.
 */
import { seededRandom } from '../support/seededRandom.js';
import type { WatchEvent } from './client.js';
import { Rng, randomNode, randomObject, scalarPaths, type Schema } from './randomSchema.js';
import { randomValue } from './randomValue.js';
import type { CrdLike, Session } from './session.js';

/** A generated case; plain data, so it can be printed and replayed. */
export interface RandomCase {
  seed: number;
  /** The API group's first label (unique per case and per replay). */
  slug: string;
  /** The deliberate CRD mistake, if any (for the report). */
  crdFault?: string;
  crd: CrdLike;
  scope: 'Namespaced' | 'Cluster';
  objects: { name: string; body: Record<string, unknown>; query: string }[];
  /** The PUT of objects[0]: its spec (the server's resourceVersion is added at run time). */
  update: { body: Record<string, unknown>; query: string };
  /** A merge patch of objects[0]. */
  patch: { body: Record<string, unknown>; query: string };
  /** Field selectors (unencoded) for lists; the first one also drives the watch. */
  selectors: string[];
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const fieldValidations = ['', '', '?fieldValidation=Strict', '?fieldValidation=Ignore', '?fieldValidation=Warn'];

/** Every schema node below `s`, with a setter to replace it. */
function nodes(s: Schema, out: { node: Schema; path: string }[] = [], path = ''): { node: Schema; path: string }[] {
  out.push({ node: s, path });
  for (const [k, v] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) nodes(v, out, `${path}.${k}`);
  if (typeof s.additionalProperties === 'object') nodes(s.additionalProperties as Schema, out, `${path}[*]`);
  if (typeof s.items === 'object') nodes(s.items as Schema, out, `${path}[]`);
  return out;
}

/** Breaks one thing in a CRD's spec schema or selectable fields; returns what it broke. */
function breakCrd(r: Rng, spec: Schema, version: Record<string, unknown>): string {
  const all = nodes(spec).filter((n) => n.path !== '');
  const target = all.length > 0 ? r.pick(all) : { node: spec, path: '' };
  const n = target.node;
  const faults: [string, () => void][] = [
    ['default of the wrong type', () => { n.default = n.type === 'string' ? 5 : 'five'; }],
    ['no type', () => { delete n.type; delete n['x-kubernetes-int-or-string']; delete n['x-kubernetes-preserve-unknown-fields']; }],
    ['properties and additionalProperties', () => { n.type = 'object'; n.properties = { a: { type: 'string' } }; n.additionalProperties = { type: 'string' }; delete n.items; }],
    ['int-or-string with a type', () => { n['x-kubernetes-int-or-string'] = true; n.type = 'string'; }],
    ['pattern that does not compile', () => { n.type = 'string'; n.pattern = '[a-'; delete n.default; delete n.enum; delete n.properties; delete n.items; delete n.additionalProperties; }],
    ['negative maxLength', () => { n.maxLength = -1; }],
    ['required names a missing property', () => { if (n.type === 'object' && n.properties !== undefined) n.required = ['missingProp']; else n.required = ['x']; }],
    ['CEL rule on a missing field', () => { n['x-kubernetes-validations'] = [{ rule: 'self.nope == 1' }]; }],
    ['CEL rule that does not parse', () => { n['x-kubernetes-validations'] = [{ rule: 'self ==' }]; }],
    ['default violating maxLength or minimum', () => {
      if (n.type === 'string') { n.maxLength = 2; n.default = 'toolong'; delete n.enum; delete n.pattern; } else { n.type = 'integer'; n.minimum = 5; n.default = 1; delete n.enum; delete n.properties; delete n.items; delete n.additionalProperties; delete n.maximum; }
    }],
    ['default with an unknown field', () => { if (n.type === 'object' && n.properties !== undefined && n['x-kubernetes-preserve-unknown-fields'] !== true) n.default = { unknownInDefault: 1 }; else n.default = { a: 1 }; }],
    ['enum value of the wrong type', () => { n.enum = n.type === 'string' ? [1, 'a'] : ['a']; delete n.default; }],
    ['selectable field on a missing path', () => { version.selectableFields = [{ jsonPath: '.spec.nothere' }]; }],
    ['selectable field without a leading dot', () => { version.selectableFields = [{ jsonPath: 'spec' }]; }],
    ['selectable field on an object or array', () => { version.selectableFields = [{ jsonPath: `.spec${target.path.split(/[[]/)[0]}` }]; }],
    ['uniqueItems', () => { n.uniqueItems = true; }],
    ['nullable default null on a non-nullable field', () => { n.default = null; delete n.nullable; }],
  ];
  const [what, apply] = r.pick(faults);
  apply();
  return `${what} at .spec${target.path}`;
}

function encodeSelector(sel: string): string {
  return encodeURIComponent(sel);
}

/** Generates case number `index` of a run with `seed`. */
export function generateCase(seed: number, index: number): RandomCase {
  const r = new Rng(seededRandomFor(seed, index));
  const slug = `r${seed}-${index}`;
  const group = `${slug}.rand.example.com`;
  const budget = { nodes: r.int(4, 16) };
  const spec = randomObject(r, r.int(1, 3), budget);
  if (r.chance(0.2)) spec.default = {};
  const root: Schema = { type: 'object', properties: { spec } };
  if (r.chance(0.3)) (root.properties as Record<string, Schema>).top = randomNode(r, 0, { nodes: 1 });
  if (r.chance(0.1)) root['x-kubernetes-preserve-unknown-fields'] = true;
  const version: Record<string, unknown> = { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: root } };
  const scalars = scalarPaths(root).filter((p) => p.path.startsWith('.spec.') || p.path === '.top');
  const selectable = scalars.filter((p) => ['string', 'integer', 'boolean'].includes(String(p.schema.type)));
  const chosen = selectable.filter(() => r.chance(0.6)).slice(0, 3);
  if (chosen.length > 0) version.selectableFields = chosen.map((p) => ({ jsonPath: p.path }));
  let crdFault: string | undefined;
  if (r.chance(0.15)) crdFault = breakCrd(r, spec, version);
  const scope = r.chance(0.75) ? 'Namespaced' : 'Cluster';
  const crd: CrdLike = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `things.${group}` },
    spec: { group, scope, names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' }, versions: [version as CrdLike['spec']['versions'][number]] },
  };
  const apiVersion = `${group}/v1`;
  const faultyObject = () => ({ left: r.chance(0.4) ? 1 : 0, p: 0.3 });
  const object = (name: string): Record<string, unknown> => {
    const o: Record<string, unknown> = { apiVersion, kind: 'Thing', metadata: { name } };
    if (r.chance(0.92)) o.spec = randomValue(r, spec, faultyObject());
    const top = (root.properties as Record<string, Schema>).top;
    if (top !== undefined && r.chance(0.5)) o.top = randomValue(r, top, faultyObject());
    if (r.chance(0.08)) o.extraTopLevel = 'x';
    return o;
  };
  const objects = ['o1', 'o2', 'o3'].map((name) => ({ name, body: object(name), query: r.pick(fieldValidations) }));
  const update = { body: object('o1'), query: r.pick(fieldValidations) };
  const patchSpec: Record<string, unknown> = {};
  const props = (spec.properties as Record<string, Schema> | undefined) ?? {};
  for (const k of Object.keys(props)) {
    if (r.chance(0.4)) patchSpec[k] = r.chance(0.2) ? null : randomValue(r, props[k], faultyObject());
  }
  if (r.chance(0.1)) patchSpec.patchedUnknown = 1;
  const patch = { body: { spec: patchSpec } as Record<string, unknown>, query: r.pick(fieldValidations) };
  // Selectors: on the selectable fields (values the objects have, or not), on a field that is not
  // selectable, on metadata.name, and a conjunction.
  const valueAt = (o: Record<string, unknown>, path: string): string => {
    let v: unknown = o;
    for (const k of path.slice(1).split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    return v === undefined || v === null || typeof v === 'object' ? '' : String(v);
  };
  const selectors: string[] = [];
  const term = (path: string) => `${path.slice(1)}${r.pick(['=', '==', '!='])}${r.chance(0.7) ? valueAt(r.pick(objects).body, path) : r.word(0, 3)}`;
  for (const p of chosen) selectors.push(term(p.path));
  const unselectable = scalars.filter((p) => !chosen.includes(p));
  if (unselectable.length > 0 && r.chance(0.5)) selectors.push(term(r.pick(unselectable).path));
  if (chosen.length >= 2 && r.chance(0.5)) selectors.push(`${term(chosen[0].path)},${term(chosen[1].path)}`);
  selectors.push(`metadata.name${r.pick(['=', '!='])}o2`);
  return { seed, slug, crdFault, crd, scope, objects, update, patch, selectors };
}

/** A generator for case `index` of a run: independent of how many cases ran before it. */
function seededRandomFor(seed: number, index: number): () => number {
  // The run's seed and the case's index mixed into one 32-bit seed.
  return seededRandom((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
}

/** A copy of a case for a replay: the same content under a new group, so the replay's CRD is fresh. */
export function withSlug(c: RandomCase, slug: string): RandomCase {
  const json = JSON.stringify(c).split(`${c.slug}.rand.example.com`).join(`${slug}.rand.example.com`);
  return { ...(JSON.parse(json) as RandomCase), slug };
}

/**
 * The Status fields of an error answer, with its causes sorted: the apiserver's order of schema errors
 * follows Go map iteration and varies run to run, so a message listing several errors is compared
 * through its causes only. A success keeps its body.
 */
export function answer(b: unknown): unknown {
  const o = b as { kind?: string; code?: number; reason?: string; message?: string; details?: { causes?: { field?: string; message?: string; reason?: string }[] } };
  if (o?.kind !== 'Status') return b;
  const causes = o.details?.causes === undefined ? undefined : [...o.details.causes].sort((x, y) => `${x.field} ${x.message}`.localeCompare(`${y.field} ${y.message}`));
  let message = o.message === undefined ? undefined : unstamp(o.message);
  if (message !== undefined && causes !== undefined && causes.length > 1) message = message.replace(/: \[.*\]$/s, `: [${causes.length} errors]`);
  return { code: o.code, reason: o.reason, message, causes: causes?.map((x) => (x.message === undefined ? x : { ...x, message: unstamp(x.message) })) };
}

/**
 * Masks the server-made fields of an object quoted in a message: a strict patch's 422 quotes the patched
 * object as escaped JSON, and the codec's `Object 'Kind' is missing in '{…}'` as plain JSON.
 */
function unstamp(message: string): string {
  return message.replace(/\\"(creationTimestamp|time|lastTransitionTime|uid|resourceVersion)\\":\\"[^\\"]*\\"/g, '\\"$1\\":\\"<$1>\\"')
    .replace(/"(creationTimestamp|time|lastTransitionTime|uid|resourceVersion)":"[^"\\]*"/g, '"$1":"<$1>"');
}

const listKeep = (b: unknown): unknown => {
  const o = b as { kind?: string; items?: { metadata: { name: string } }[] };
  return o?.kind === 'Status' ? answer(b) : (o.items ?? []).map((i) => i.metadata.name);
};

/**
 * How many events a watch with `selector` owes for the writes of a case: a write that changes an object
 * is an event when the object matched the selector before or after it. Whether it matches is the
 * server's own answer (a list with the selector and the object's name), so the count needs no selector
 * semantics of the suite's own.
 */
class EventCount {
  expected = 0;
  private readonly state = new Map<string, { rv: string; matches: boolean }>();

  constructor(private readonly s: Session, private readonly base: string, private readonly selector: string) {}

  async after(name: string, r: { status: number; body: unknown }, deleted = false): Promise<void> {
    if (r.status >= 300) return;
    const before = this.state.get(name);
    const rv = (r.body as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? '';
    if (!deleted && before !== undefined && before.rv === rv) return;
    let matches = false;
    if (!deleted) {
      const q = encodeSelector(`${this.selector},metadata.name=${name}`);
      const l = await this.s.raw('GET', `${this.base}?fieldSelector=${q}`);
      matches = l.status === 200 && ((l.body as ListBody).items ?? []).length > 0;
    }
    if (matches || (before?.matches ?? false)) this.expected++;
    if (deleted) this.state.delete(name);
    else this.state.set(name, { rv, matches });
  }
}

/** Plays a case against one backend. */
export async function runCase(s: Session, c: RandomCase): Promise<void> {
  const created = await s.req('create CRD', 'POST', crdPath, { body: c.crd, keep: (b) => ((b as { kind?: string }).kind === 'Status' ? answer(b) : '<created>') });
  if (created.status >= 300) return;
  try {
    await s.served(c.crd);
    const base = `/apis/${c.crd.spec.group}/v1${c.scope === 'Namespaced' ? '/namespaces/default' : ''}/things`;
    const sel0 = c.selectors[0];
    const before = await s.req(`list ${sel0} (before)`, 'GET', `${base}?fieldSelector=${encodeSelector(sel0)}`, { keep: listKeep });
    const events = new EventCount(s, base, sel0);
    let o1rv: string | undefined;
    for (const o of c.objects) {
      const r = await s.req(`create ${o.name}${o.query}`, 'POST', `${base}${o.query}`, { body: o.body, keep: answer });
      await events.after(o.name, r);
      if (o.name === 'o1' && r.status < 300) o1rv = (r.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    }
    await s.req('get o1', 'GET', `${base}/o1`, { keep: answer });
    const upd = { ...c.update.body, metadata: { ...(c.update.body.metadata as object), ...(o1rv !== undefined ? { resourceVersion: o1rv } : {}) } };
    await events.after('o1', await s.req(`update o1${c.update.query}`, 'PUT', `${base}/o1${c.update.query}`, { body: upd, keep: answer }));
    await events.after('o1', await s.req(`merge patch o1${c.patch.query}`, 'PATCH', `${base}/o1${c.patch.query}`, { body: c.patch.body, contentType: 'application/merge-patch+json', keep: answer }));
    await events.after('o3', await s.req('delete o3', 'DELETE', `${base}/o3`, { keep: (b) => ((b as { kind?: string }).kind === 'Status' ? answer(b) : '<deleted>') }), true);
    for (const sel of c.selectors) await s.req(`list ${sel}`, 'GET', `${base}?fieldSelector=${encodeSelector(sel)}`, { keep: listKeep });
    if (before.status === 200) await watchBriefly(s, base, sel0, before.body as ListBody, events.expected);
  } finally {
    await s.raw('DELETE', `${crdPath}/${c.crd.metadata.name}`);
  }
}

interface ListBody { metadata: { resourceVersion: string }; items: { metadata: { name: string; resourceVersion: string } }[] }

/**
 * Watches from the first list's resourceVersion with its selector until the events the writes owe it
 * have come (bounded: 20 s), and records them.
 */
async function watchBriefly(s: Session, base: string, sel: string, before: ListBody, expected: number): Promise<void> {
  const w = await s.watch(`${base}?watch=1&fieldSelector=${encodeSelector(sel)}&resourceVersion=${before.metadata.resourceVersion}`);
  if (w.status >= 300) { s.recordEvents(`watch ${sel}`, w); return; }
  const count = (events: WatchEvent[]) => events.filter((e) => e.type !== 'BOOKMARK').length;
  try {
    await w.until((events) => count(events) >= expected, `${expected} events`, 20_000);
  } catch (err) {
    s.record(`watch ${sel}: incomplete`, String((err as Error).message).replace(/^(kubekit|reference): /, '').replace(/\?watch=1.*? /, ' '));
  }
  s.recordEvents(`watch ${sel}`, w, { project: (e) => ({ type: e.type, object: e.type === 'ERROR' ? answer(e.object) : e.object }) });
}
