/**
 * The differential scenarios: scripted requests whose answers from kubekit's embedded server and from
 * the real kube-apiserver must agree after normalisation. Each scenario uses its own API group, so
 * scenarios share one server pair without seeing each other.
 *
 * Semantics under test come from upstream's integration tests (staging/src/k8s.io/apiextensions-apiserver/
 * test/integration: fieldselector_test.go, validation_test.go, defaulting_test.go, pruning_test.go,
 * subresources_test.go, table_test.go, apply_test.go; test/integration/apiserver/watchlist_test.go) and
 * the CRD docs page; the expected answers are whatever the real server says.
 */
import type { Session, CrdLike } from './session.js';
import { eventNames } from './session.js';
import type { WatchEvent } from './client.js';
import { builtinScenarios } from './builtinScenarios.js';
import { names, ofEither, statusOnly } from './keep.js';

/** A scenario: a name, which server pair it runs on, and its script. */
export interface Scenario {
  name: string;
  /** `gateOff`: the servers with CustomResourceFieldSelectors off (a 1.31 cluster). @defaultValue `default` */
  servers?: 'default' | 'gateOff';
  /** Compare `metadata.managedFields` too. */
  managedFields?: boolean;
  run(s: Session): Promise<void>;
}

type Schema = Record<string, unknown>;

interface CrdOptions {
  plural?: string;
  kind?: string;
  scope?: 'Namespaced' | 'Cluster';
  schema?: Schema;
  selectableFields?: { jsonPath: string }[];
  additionalPrinterColumns?: unknown[];
  subresources?: unknown;
  versions?: Record<string, unknown>[];
  shortNames?: string[];
}

const widgetSchema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        color: { type: 'string' },
        size: { type: 'string', default: 'M' },
        replicas: { type: 'integer', minimum: 0 },
        tags: { type: 'array', maxItems: 4, items: { type: 'string' } },
        count: { type: 'integer' },
        enabled: { type: 'boolean' },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' }, phase: { type: 'string' }, selector: { type: 'string' } } },
  },
};

/** A Widget CRD in group `<slug>.diff.example.com`. */
function crd(slug: string, o: CrdOptions = {}): CrdLike {
  const plural = o.plural ?? 'widgets';
  const kind = o.kind ?? 'Widget';
  const group = `${slug}.diff.example.com`;
  const version: Record<string, unknown> = { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: o.schema ?? widgetSchema } };
  if (o.selectableFields) version.selectableFields = o.selectableFields;
  if (o.additionalPrinterColumns) version.additionalPrinterColumns = o.additionalPrinterColumns;
  if (o.subresources) version.subresources = o.subresources;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: o.scope ?? 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, ...(o.shortNames ? { shortNames: o.shortNames } : {}) },
      versions: (o.versions as CrdLike['spec']['versions'] | undefined) ?? [version as CrdLike['spec']['versions'][number]],
    },
  };
}

function base(c: CrdLike, version = 'v1', namespace = 'default'): string {
  const ns = c.spec.scope === 'Cluster' ? '' : `/namespaces/${namespace}`;
  return `/apis/${c.spec.group}/${version}${ns}/${c.spec.names.plural}`;
}

function widget(c: CrdLike, name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, version = 'v1'): Record<string, unknown> {
  return { apiVersion: `${c.spec.group}/${version}`, kind: String(c.spec.names.kind), metadata: { name, ...(extra.metadata as object | undefined) }, spec, ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'metadata')) };
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A CRD create that is expected to fail: the Status is what counts. */
async function badCRD(s: Session, label: string, c: CrdLike): Promise<void> {
  await s.req(label, 'POST', crdPath, { body: c, keep: statusOnly });
}

function withSpec(props: Schema, extra: Schema = {}): Schema {
  return { type: 'object', properties: { spec: { type: 'object', properties: props, ...extra } } };
}

export const scenarios: Scenario[] = [
  // ---------------------------------------------------------------- CRD writes
  {
    name: 'crd/structural-schema-errors',
    async run(s) {
      await badCRD(s, 'property without type', crd('struct1', { schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } } }));
      await badCRD(s, 'properties and additionalProperties', crd('struct2', { schema: withSpec({ m: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } } }) }));
      await badCRD(s, 'default of the wrong type', crd('struct3', { schema: withSpec({ a: { type: 'string', default: 5 } }) }));
      await badCRD(s, 'no schema', { ...crd('struct4'), spec: { ...crd('struct4').spec, versions: [{ name: 'v1', served: true, storage: true }] } });
      await badCRD(s, 'metadata with properties beyond name/generateName', crd('struct5', { schema: { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } } }));
      await badCRD(s, 'x-kubernetes-int-or-string with a type', crd('struct6', { schema: withSpec({ a: { type: 'string', 'x-kubernetes-int-or-string': true } }) }));
      await badCRD(s, 'bad names and no storage version', { ...crd('struct7'), metadata: { name: 'wrong.name' }, spec: { ...crd('struct7').spec, versions: [{ name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: widgetSchema } }] } });
    },
  },
  {
    name: 'crd/selectable-fields-errors',
    async run(s) {
      const bad = (jsonPaths: string[]) => crd('selfields', { selectableFields: jsonPaths.map((jsonPath) => ({ jsonPath })) });
      await badCRD(s, 'no leading dot', bad(['spec.color']));
      await badCRD(s, 'array field', bad(['.spec.tags']));
      await badCRD(s, 'object field', bad(['.spec']));
      await badCRD(s, 'into metadata', bad(['.metadata.name']));
      await badCRD(s, 'unknown field', bad(['.spec.nope']));
      await badCRD(s, 'duplicate', bad(['.spec.color', '.spec.color']));
      await badCRD(s, 'array notation', bad(['.spec.tags[0]']));
      await badCRD(s, 'nine fields', crd('selfields', {
        schema: withSpec(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, { type: 'string' }]))),
        selectableFields: Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` })),
      }));
    },
  },
  {
    name: 'crd/printer-columns-errors',
    async run(s) {
      const bad = (cols: unknown[]) => crd('printers', { additionalPrinterColumns: cols });
      await badCRD(s, 'unknown type', bad([{ name: 'Color', type: 'color', jsonPath: '.spec.color' }]));
      await badCRD(s, 'bad jsonPath', bad([{ name: 'Color', type: 'string', jsonPath: '.spec[' }]));
      await badCRD(s, 'missing name and jsonPath', bad([{ type: 'string' }]));
      await badCRD(s, 'unknown format, negative priority', bad([{ name: 'C', type: 'string', format: 'colour', priority: -1, jsonPath: '.spec.color' }]));
    },
  },
  {
    name: 'crd/cel-compile-errors',
    async run(s) {
      const rule = (v: Record<string, unknown>) => crd('celc', { schema: withSpec({ x: { type: 'integer' }, maxLimit: { type: 'integer' }, name: { type: 'string', maxLength: 10 } }, { 'x-kubernetes-validations': [v] }) });
      await badCRD(s, 'syntax error', rule({ rule: 'self.x <=' }));
      await badCRD(s, 'undefined field', rule({ rule: 'self.nope == 1' }));
      await badCRD(s, 'rule not boolean', rule({ rule: 'self.x' }));
      await badCRD(s, 'messageExpression not a string', rule({ rule: 'self.x <= self.maxLimit', messageExpression: 'self.maxLimit' }));
      await badCRD(s, 'unknown reason', rule({ rule: 'self.x <= self.maxLimit', reason: 'FieldValueBad' }));
      await badCRD(s, 'fieldPath not in schema', rule({ rule: 'self.x <= self.maxLimit', fieldPath: '.nope' }));
      await badCRD(s, 'oldSelf with optionalOldSelf on a non-transition', rule({ rule: 'self.x > 0', optionalOldSelf: true }));
    },
  },
  {
    name: 'crd/cel-docs-messageExpression',
    async run(s) {
      // The CRD docs page's example, verbatim, on the schema of the docs' neighbouring examples.
      const docs = crd('celdocs', { schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.x <= self.maxLimit', messageExpression: '"x exceeded max limit of " + string(self.maxLimit)' }], properties: { x: { type: 'integer' }, maxLimit: { type: 'integer' } } } } } });
      const r = await s.createCRD('docs example', docs, { keep: statusOnly });
      if (r.status < 300) {
        await s.req('x over the limit', 'POST', base(docs), { body: widget(docs, 'w1', { x: 5, maxLimit: 3 }), keep: statusOnly });
        await s.req('x within the limit', 'POST', base(docs), { body: widget(docs, 'w2', { x: 2, maxLimit: 3 }), keep: statusOnly });
      }
      // The same rule at the root, where self.x is not defined.
      await badCRD(s, 'docs example at the root', crd('celdocs2', { schema: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.x <= self.maxLimit', messageExpression: '"x exceeded max limit of " + string(self.maxLimit)' }], properties: { spec: { type: 'object', properties: { x: { type: 'integer' }, maxLimit: { type: 'integer' } } } } } }));
    },
  },
  {
    name: 'crd/cel-cost-errors',
    async run(s) {
      await badCRD(s, 'quadratic over unbounded lists', crd('celcost1', { schema: withSpec({ list: { type: 'array', items: { type: 'string' } } }, { 'x-kubernetes-validations': [{ rule: 'self.list.all(x, self.list.all(y, x == y))' }] }) }));
      await badCRD(s, 'regex over unbounded strings in an unbounded map', crd('celcost2', { schema: withSpec({ m: { type: 'object', additionalProperties: { type: 'string' } } }, { 'x-kubernetes-validations': [{ rule: "self.m.all(k, self.m[k].matches('^[a-z]*$') && k.matches('^[a-z]*$'))" }] }) }));
      await s.createCRD('bounded: accepted', crd('celcost3', { schema: withSpec({ list: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } } }, { 'x-kubernetes-validations': [{ rule: 'self.list.all(x, self.list.all(y, x == y))' }] }) }), { keep: statusOnly });
    },
  },
  {
    // The cost estimate of a comprehension over the result of filter/map (issue 12's "known divergence";
    // fixed in packages/cel/src/cost.ts).
    name: 'crd/cel-cost-comprehension-over-filter',
    async run(s) {
      const envars = { type: 'array', maxItems: 10, items: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, value: { type: 'string', maxLength: 10 } } } };
      await s.createCRD('filter then all', crd('celfilter1', { schema: withSpec({ envars, value: { type: 'string', maxLength: 10 } }, { 'x-kubernetes-validations': [{ rule: "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))" }] }) }), { keep: statusOnly });
      await s.createCRD('map then all', crd('celfilter2', { schema: withSpec({ envars }, { 'x-kubernetes-validations': [{ rule: "self.envars.map(e, e.value).all(v, v.matches('^[a-zA-Z]*$'))" }] }) }), { keep: statusOnly });
    },
  },
  {
    name: 'crd/create-update-answers',
    async run(s) {
      const c = crd('crdanswer', { shortNames: ['wd'], selectableFields: [{ jsonPath: '.spec.color' }], additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }] });
      await s.createCRD('create', c);
      const got = await s.req('get', 'GET', `${crdPath}/${c.metadata.name}`);
      const cur = got.body as CrdLike & { metadata: { resourceVersion: string } };
      await s.req('update: remove the only storage version', 'PUT', `${crdPath}/${c.metadata.name}`, { body: { ...cur, spec: { ...cur.spec, versions: cur.spec.versions.map((v) => ({ ...v, storage: false })) } }, keep: statusOnly });
      await s.req('update: change scope', 'PUT', `${crdPath}/${c.metadata.name}`, { body: { ...cur, spec: { ...cur.spec, scope: 'Cluster' } }, keep: statusOnly });
      await s.req('update: stale resourceVersion', 'PUT', `${crdPath}/${c.metadata.name}`, { body: { ...cur, metadata: { ...cur.metadata, resourceVersion: '1' } }, keep: statusOnly });
      await s.req('create again', 'POST', crdPath, { body: c, keep: statusOnly });
    },
  },
  // ---------------------------------------------------------------- custom resources
  {
    name: 'cr/create-get-update-conflict',
    async run(s) {
      const c = crd('crud');
      await s.setupCRD(c);
      const created = await s.req('create', 'POST', base(c), { body: widget(c, 'w1', { color: 'blue', replicas: 1 }, { metadata: { labels: { tier: 'gold' } } }) });
      await s.req('create again', 'POST', base(c), { body: widget(c, 'w1', { color: 'blue' }) });
      await s.req('get', 'GET', `${base(c)}/w1`);
      await s.req('get missing', 'GET', `${base(c)}/nope`);
      await s.req('get in a missing namespace', 'GET', `${base(c, 'v1', 'nope')}/w1`);
      await s.req('create in a missing namespace', 'POST', base(c, 'v1', 'nope'), { body: widget(c, 'w9', {}) });
      const cur = created.body as { metadata: Record<string, unknown> };
      await s.req('update', 'PUT', `${base(c)}/w1`, { body: { ...widget(c, 'w1', { color: 'red', replicas: 2 }), metadata: { ...cur.metadata } } });
      await s.req('update with the stale resourceVersion', 'PUT', `${base(c)}/w1`, { body: { ...widget(c, 'w1', { color: 'green' }), metadata: { ...cur.metadata } } });
      await s.req('update without resourceVersion', 'PUT', `${base(c)}/w1`, { body: widget(c, 'w1', { color: 'green' }) });
      await s.req('update with a name mismatch', 'PUT', `${base(c)}/w1`, { body: widget(c, 'w2', { color: 'green' }) });
      await s.req('update of a missing object', 'PUT', `${base(c)}/w3`, { body: widget(c, 'w3', { color: 'green' }) });
      await s.req('generateName', 'POST', base(c), { body: { ...widget(c, '', {}), metadata: { generateName: 'gen-' } } });
      await s.req('invalid name', 'POST', base(c), { body: widget(c, 'Not_Valid', {}) });
      await s.req('wrong kind', 'POST', base(c), { body: { ...widget(c, 'w4', {}), kind: 'Gadget' } });
      await s.req('malformed JSON', 'POST', base(c), { raw: '{"apiVersion": ' });
      await s.req('not JSON', 'POST', base(c), { raw: '{"apiVersion":"v1",}' });
      await s.req('apiVersion not a string', 'POST', base(c), { raw: '{"apiVersion":5,"kind":"Widget"}' });
      await s.req('delete', 'DELETE', `${base(c)}/w1`);
      await s.req('delete again', 'DELETE', `${base(c)}/w1`);
      await s.req('delete with a stale precondition', 'DELETE', `${base(c)}/nope`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } } });
    },
  },
  {
    name: 'cr/merge-and-json-patch',
    async run(s) {
      const c = crd('patch');
      await s.setupCRD(c);
      await s.must('POST', base(c), { body: widget(c, 'w1', { color: 'blue', tags: ['a', 'b'], replicas: 1 }) });
      const merge = 'application/merge-patch+json';
      const json = 'application/json-patch+json';
      await s.req('merge: set and delete', 'PATCH', `${base(c)}/w1`, { body: { spec: { color: 'red', replicas: null } }, contentType: merge });
      await s.req('merge: invalid value', 'PATCH', `${base(c)}/w1`, { body: { spec: { replicas: -1 } }, contentType: merge });
      await s.req('merge: missing object', 'PATCH', `${base(c)}/nope`, { body: { spec: {} }, contentType: merge });
      await s.req('merge: not JSON', 'PATCH', `${base(c)}/w1`, { raw: '{', contentType: merge });
      await s.req('json: add, replace, remove', 'PATCH', `${base(c)}/w1`, { body: [{ op: 'add', path: '/spec/tags/-', value: 'c' }, { op: 'replace', path: '/spec/color', value: 'green' }, { op: 'remove', path: '/spec/tags/0' }], contentType: json });
      await s.req('json: failed test', 'PATCH', `${base(c)}/w1`, { body: [{ op: 'test', path: '/spec/color', value: 'blue' }], contentType: json });
      await s.req('json: remove a missing path', 'PATCH', `${base(c)}/w1`, { body: [{ op: 'remove', path: '/spec/nope' }], contentType: json });
      await s.req('json: unknown op', 'PATCH', `${base(c)}/w1`, { body: [{ op: 'frobnicate', path: '/spec/color' }], contentType: json });
      await s.req('json: not an array', 'PATCH', `${base(c)}/w1`, { body: { op: 'add' }, contentType: json });
      await s.req('json: op not a string', 'PATCH', `${base(c)}/w1`, { body: [{ op: 5, path: '/spec' }], contentType: json });
      await s.req('merge: an array', 'PATCH', `${base(c)}/w1`, { body: [], contentType: merge });
      await s.req('json: stale resourceVersion test', 'PATCH', `${base(c)}/w1`, { body: [{ op: 'replace', path: '/metadata/resourceVersion', value: '1' }, { op: 'replace', path: '/spec/color', value: 'x' }], contentType: json });
      await s.req('strategic merge on a custom resource', 'PATCH', `${base(c)}/w1`, { body: { spec: {} }, contentType: 'application/strategic-merge-patch+json' });
      await s.req('unknown patch type', 'PATCH', `${base(c)}/w1`, { body: { spec: {} }, contentType: 'application/foo' });
    },
  },
  {
    name: 'cr/server-side-apply',
    managedFields: true,
    async run(s) {
      const c = crd('ssa');
      await s.setupCRD(c);
      const apply = 'application/apply-patch+yaml';
      const p = `${base(c)}/w1`;
      await s.req('apply without fieldManager', 'PATCH', p, { body: widget(c, 'w1', { color: 'blue' }), contentType: apply });
      await s.req('alice creates', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'w1', { color: 'blue', replicas: 1 }), contentType: apply });
      await s.req('bob takes a different field', 'PATCH', `${p}?fieldManager=bob`, { body: widget(c, 'w1', { size: 'L' }), contentType: apply });
      await s.req('bob conflicts on color', 'PATCH', `${p}?fieldManager=bob`, { body: widget(c, 'w1', { color: 'red' }), contentType: apply });
      await s.req('bob forces color', 'PATCH', `${p}?fieldManager=bob&force=true`, { body: widget(c, 'w1', { color: 'red' }), contentType: apply });
      await s.req('alice drops replicas', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'w1', {}), contentType: apply });
      // Applying the value another manager set shares it; an update takes it from every applier.
      await s.req('alice applies the color bob set (shared)', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'w1', { color: 'red' }), contentType: apply });
      await s.req('carol updates color (merge patch)', 'PATCH', `${p}?fieldManager=carol`, { body: { spec: { color: 'green', count: 1 } }, contentType: 'application/merge-patch+json' });
      await s.req('alice conflicts with an updater', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'w1', { color: 'blue', count: 2 }), contentType: apply });
      await s.req('an update without fieldManager is managed by its User-Agent', 'PATCH', p, { body: { spec: { enabled: true } }, contentType: 'application/merge-patch+json', userAgent: 'kubectl/v1.34.4 (linux/amd64) kubernetes/abcdef' });
      await s.req('apply with managedFields in the configuration', 'PATCH', `${p}?fieldManager=alice`, { body: { ...widget(c, 'w1', {}), metadata: { name: 'w1', managedFields: [{ manager: 'x', operation: 'Apply' }] } }, contentType: apply });
      await s.req('dry-run apply', 'PATCH', `${p}?fieldManager=dave&dryRun=All&force=true`, { body: widget(c, 'w1', { color: 'pink' }), contentType: apply });
      // Managed fields reset by an update with `[{}]`; the next apply credits the fields to before-first-apply.
      await s.req('reset managedFields', 'PATCH', p, { body: { metadata: { managedFields: [{}] } }, contentType: 'application/merge-patch+json' });
      await s.req('an update of an untracked object stays untracked', 'PATCH', `${p}?fieldManager=carol`, { body: { spec: { count: 3 } }, contentType: 'application/merge-patch+json' });
      await s.req('first apply after the reset conflicts with before-first-apply', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'w1', { color: 'blue', count: 3 }), contentType: apply });
      await s.req('first apply after the reset, forced', 'PATCH', `${p}?fieldManager=alice&force=true`, { body: widget(c, 'w1', { color: 'blue', count: 3 }), contentType: apply });
      await s.req('create by update (POST)', 'POST', `${base(c)}?fieldManager=creator`, { body: widget(c, 'w2', { color: 'blue', tags: ['a'] }, { metadata: { labels: { app: 'x' } } }) });
      await s.req('apply conflicts with the creator', 'PATCH', `${base(c)}/w2?fieldManager=alice`, { body: widget(c, 'w2', { color: 'red', tags: ['b'] }), contentType: apply });
      await s.req('apply takes the creator\'s label by force', 'PATCH', `${base(c)}/w2?fieldManager=alice&force=true`, { body: widget(c, 'w2', { tags: ['b'] }, { metadata: { labels: { app: 'y', tier: 'web' } } }), contentType: apply });
      await s.req('alice drops her label', 'PATCH', `${base(c)}/w2?fieldManager=alice`, { body: widget(c, 'w2', { tags: ['b'] }, { metadata: { labels: { app: 'y' } } }), contentType: apply });
    },
  },
  {
    name: 'cr/server-side-apply-lists',
    managedFields: true,
    async run(s) {
      const c = crd('ssalists', {
        subresources: { status: {} },
        schema: { type: 'object', properties: {
          spec: { type: 'object', properties: {
            ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, proto: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } } },
            hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            args: { type: 'array', items: { type: 'string' } },
            selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: { type: 'string' }, tier: { type: 'string' } } },
            env: { type: 'object', additionalProperties: { type: 'string' } },
            free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          } },
          status: { type: 'object', properties: { phase: { type: 'string' }, ready: { type: 'integer' } } },
        } },
      });
      await s.setupCRD(c);
      const apply = 'application/apply-patch+yaml';
      const merge = 'application/merge-patch+json';
      const p = `${base(c)}/l1`;
      await s.req('create by update', 'POST', `${base(c)}?fieldManager=creator`, { body: widget(c, 'l1', { ports: [{ name: 'a', port: 1 }], hosts: ['h1'], args: ['x'], selector: { app: 'a' }, env: { A: '1' }, free: { deep: { x: 1 }, list: [1, 2] } }) });
      await s.req('alice adds a port item', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'l1', { ports: [{ name: 'b', port: 2 }], hosts: ['h2'], env: { B: '2' } }), contentType: apply });
      await s.req('alice conflicts on the creator\'s item', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'l1', { ports: [{ name: 'b', port: 2 }, { name: 'a', port: 9 }], hosts: ['h2'], env: { B: '2' } }), contentType: apply });
      await s.req('alice conflicts on atomic values', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'l1', { args: ['y'], selector: { app: 'b' }, free: { deep: { x: 2 }, list: [3] } }), contentType: apply });
      await s.req('alice forces them', 'PATCH', `${p}?fieldManager=alice&force=true`, { body: widget(c, 'l1', { ports: [{ name: 'b', port: 2 }, { name: 'a', port: 9 }], hosts: ['h2'], env: { B: '2' }, args: ['y'], selector: { app: 'b' }, free: { deep: { x: 2 }, list: [3] } }), contentType: apply });
      await s.req('bob shares a set value and adds one', 'PATCH', `${p}?fieldManager=bob`, { body: widget(c, 'l1', { hosts: ['h2', 'h3'], ports: [{ name: 'c', proto: 'UDP', port: 3 }] }), contentType: apply });
      await s.req('status written by an updater', 'PATCH', `${p}/status?fieldManager=dan`, { body: { status: { phase: 'Pending', ready: 0 } }, contentType: merge });
      await s.req('status applied', 'PATCH', `${p}/status?fieldManager=dave&force=true`, { body: { ...widget(c, 'l1', {}), status: { phase: 'Running' } }, contentType: apply });
      await s.req('status is not applied through the main resource', 'PATCH', `${p}?fieldManager=erin`, { body: { ...widget(c, 'l1', {}), status: { phase: 'Failed' } }, contentType: apply });
      await s.req('alice drops items and a set value', 'PATCH', `${p}?fieldManager=alice`, { body: widget(c, 'l1', { ports: [{ name: 'a', port: 9 }], args: ['y'] }), contentType: apply });
      await s.req('bob leaves', 'PATCH', `${p}?fieldManager=bob`, { body: widget(c, 'l1', {}), contentType: apply });
      await s.req('get', 'GET', p);
    },
  },
  {
    name: 'cr/pruning',
    async run(s) {
      const c = crd('prune', { schema: { type: 'object', properties: {
        spec: { type: 'object', properties: { known: { type: 'string' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } },
      } } });
      await s.setupCRD(c);
      const obj = { ...widget(c, 'w1', { known: 'k', unknown: 'u', free: { anything: { deep: 1 } }, embedded: { apiVersion: 'v1', kind: 'Foo', metadata: { name: 'e', bogus: 1 }, spec: { a: 'x', b: 'y' } } }), extra: 'top', status: { s: 1 } };
      await s.req('create with unknown fields (fieldValidation=Ignore)', 'POST', `${base(c)}?fieldValidation=Ignore`, { body: obj });
      await s.req('get', 'GET', `${base(c)}/w1`);
      await s.req('create with unknown fields (default: Warn)', 'POST', base(c), { body: { ...obj, metadata: { name: 'w2' } } });
    },
  },
  {
    name: 'cr/field-validation',
    async run(s) {
      const c = crd('fieldval');
      await s.setupCRD(c);
      const unknown = widget(c, 'w1', { color: 'blue', bogus: 1, nested: { x: 1 } });
      await s.req('Strict: unknown fields', 'POST', `${base(c)}?fieldValidation=Strict`, { body: unknown });
      await s.req('Warn: unknown fields', 'POST', `${base(c)}?fieldValidation=Warn`, { body: unknown });
      await s.req('Strict: duplicate field', 'POST', `${base(c)}?fieldValidation=Strict`, { raw: `{"apiVersion":"${c.spec.group}/v1","kind":"Widget","metadata":{"name":"w2"},"spec":{"color":"a","color":"b"}}` });
      await s.req('Warn: duplicate field', 'POST', `${base(c)}?fieldValidation=Warn`, { raw: `{"apiVersion":"${c.spec.group}/v1","kind":"Widget","metadata":{"name":"w3"},"spec":{"color":"a","color":"b"}}` });
      await s.req('Strict: YAML duplicates', 'POST', `${base(c)}?fieldValidation=Strict`, { raw: `apiVersion: ${c.spec.group}/v1\nkind: Widget\nmetadata:\n  name: w6\nspec:\n  color: a\n  color: b\n  bogus: 1\n`, contentType: 'application/yaml' });
      // The patched object quoted in the answer holds server-made fields (uid, managedFields): compared without it.
      const unquoted = (b: unknown): unknown => {
        const o = b as { kind?: string; code?: number; reason?: string; message?: string; details?: { causes?: { field?: string; message?: string }[] } };
        const strip = (m?: string) => m?.replace(/Invalid value: "(?:[^"\\]|\\.)*"/g, 'Invalid value: <patched>');
        return o.kind === 'Status' ? { code: o.code, reason: o.reason, message: strip(o.message), causes: o.details?.causes?.map((c) => ({ field: c.field, message: strip(c.message) })) } : '<object>';
      };
      await s.req('Strict: merge patch with unknown and duplicate fields', 'PATCH', `${base(c)}/w1?fieldValidation=Strict`, { raw: '{"spec":{"color":"a","color":"b","bogus":1}}', contentType: 'application/merge-patch+json', keep: unquoted });
      await s.req('bad fieldValidation value', 'POST', `${base(c)}?fieldValidation=Sloppy`, { body: widget(c, 'w4', {}) });
      await s.req('Strict: unknown metadata field', 'POST', `${base(c)}?fieldValidation=Strict`, { body: { ...widget(c, 'w5', {}), metadata: { name: 'w5', bogus: 'x' } } });
    },
  },
  {
    name: 'cr/schema-validation-failures',
    async run(s) {
      const c = crd('schemaval', { schema: withSpec({
        color: { type: 'string', enum: ['red', 'green', 'blue'] },
        replicas: { type: 'integer', minimum: 1, maximum: 5 },
        name: { type: 'string', pattern: '^[a-z]+$', maxLength: 5 },
        tags: { type: 'array', maxItems: 2, items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        ratio: { type: 'number', multipleOf: 0.5 },
      }, { required: ['color'] }) });
      await s.setupCRD(c);
      // The apiserver's order of schema errors follows Go map iteration (it varies run to run): compare the
      // causes as a set, and the message only through them.
      const causesAsSet = (b: unknown): unknown => {
        const o = b as { code?: number; reason?: string; details?: { causes?: { field: string; message: string }[] } };
        return { code: o.code, reason: o.reason, causes: [...(o.details?.causes ?? [])].sort((x, y) => `${x.field} ${x.message}`.localeCompare(`${y.field} ${y.message}`)) };
      };
      await s.req('all wrong', 'POST', base(c), { body: widget(c, 'w1', { color: 'pink', replicas: 9, name: 'ABCDEFG', tags: ['a', 'a', 'b'], ratio: 0.3 }), keep: causesAsSet });
      await s.req('required missing', 'POST', base(c), { body: widget(c, 'w2', { replicas: 2 }) });
      await s.req('wrong types', 'POST', base(c), { body: widget(c, 'w3', { color: 1, replicas: 'x', tags: 'a' }), keep: causesAsSet });
      await s.req('spec not an object', 'POST', base(c), { body: widget(c, 'w4', 'text' as unknown as Record<string, unknown>) });
    },
  },
  {
    name: 'cr/cel-validation-failures',
    async run(s) {
      const c = crd('celfail', { schema: withSpec({
        x: { type: 'integer' }, maxLimit: { type: 'integer' },
        name: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
        items: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } },
      }, { 'x-kubernetes-validations': [
        { rule: 'self.x <= self.maxLimit', messageExpression: "'x exceeded max limit of ' + string(self.maxLimit)" },
        { rule: 'self.x != 13', message: 'x must not be 13', reason: 'FieldValueForbidden', fieldPath: '.x' },
        { rule: "!has(self.items) || self.items.size() < 4", message: 'too many items', reason: 'FieldValueDuplicate' },
        { rule: 'self.x != 7', messageExpression: "''" },
      ] }) });
      await s.setupCRD(c);
      await s.req('over the limit', 'POST', base(c), { body: widget(c, 'w1', { x: 5, maxLimit: 3 }) });
      await s.req('13 with fieldPath and reason', 'POST', base(c), { body: widget(c, 'w2', { x: 13, maxLimit: 20, items: ['a', 'b', 'c', 'd'] }) });
      await s.req('empty messageExpression falls back', 'POST', base(c), { body: widget(c, 'w3', { x: 7, maxLimit: 20 }) });
      await s.must('POST', base(c), { body: widget(c, 'w4', { x: 1, maxLimit: 2, name: 'a' }) });
      await s.req('transition rule', 'PATCH', `${base(c)}/w4`, { body: { spec: { name: 'b' } }, contentType: 'application/merge-patch+json' });
    },
  },
  {
    name: 'cr/defaulting',
    async run(s) {
      const schema = (size: string): Schema => ({ type: 'object', properties: {
        spec: { type: 'object', default: {}, properties: {
          size: { type: 'string', default: size },
          nested: { type: 'object', default: { a: 1 }, properties: { a: { type: 'integer' }, b: { type: 'integer', default: 2 } } },
          nullable: { type: 'string', nullable: true, default: 'n' },
          nonNullable: { type: 'string', default: 'nn' },
        } },
      } });
      const c = crd('defaults', { versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema('M') } },
        { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: schema('L') } },
      ] });
      await s.setupCRD(c);
      await s.req('create empty via v1', 'POST', base(c), { body: { apiVersion: `${c.spec.group}/v1`, kind: 'Widget', metadata: { name: 'w1' } } });
      await s.req('create with nulls via v2', 'POST', base(c, 'v2'), { body: { apiVersion: `${c.spec.group}/v2`, kind: 'Widget', metadata: { name: 'w2' }, spec: { nullable: null, nonNullable: null, nested: {} } } });
      await s.req('read w2 via v1 (storage defaults)', 'GET', `${base(c)}/w2`);
      await s.req('read w1 via v2', 'GET', `${base(c, 'v2')}/w1`);
      await s.req('list via v2', 'GET', base(c, 'v2'));
    },
  },
  // ---------------------------------------------------------------- selectors
  {
    name: 'selectors/list',
    async run(s) {
      const c = crd('sellist', { selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.replicas' }, { jsonPath: '.spec.enabled' }] });
      await s.setupCRD(c);
      const mk = async (name: string, spec: Record<string, unknown>, tier: string) => s.must('POST', base(c), { body: widget(c, name, spec, { metadata: { labels: { tier } } }) });
      await mk('a', { color: 'blue', replicas: 1, enabled: true }, 'gold');
      await mk('b', { color: 'red', replicas: 2 }, 'gold');
      await mk('c', { color: 'blue', replicas: 2, enabled: false }, 'silver');
      const q = (label: string, query: string) => s.req(label, 'GET', `${base(c)}?${query}`, { keep: ofEither });
      await q('color=blue', 'fieldSelector=spec.color%3Dblue');
      await q('color==blue,replicas=2', 'fieldSelector=spec.color%3D%3Dblue%2Cspec.replicas%3D2');
      await q('color!=blue', 'fieldSelector=spec.color!%3Dblue');
      await q('enabled=false', 'fieldSelector=spec.enabled%3Dfalse');
      await q('enabled= (absent)', 'fieldSelector=spec.enabled%3D');
      await q('metadata.name', 'fieldSelector=metadata.name%3Db');
      await q('metadata.namespace', 'fieldSelector=metadata.namespace%3Ddefault');
      await q('with labels', 'fieldSelector=spec.color%3Dblue&labelSelector=tier%3Dgold');
      await q('label notin', 'labelSelector=tier%20notin%20(gold)');
      await q('label exists', 'labelSelector=tier');
      await q('unsupported field label', 'fieldSelector=spec.size%3DM');
      await q('field selector without operator', 'fieldSelector=spec.color');
      await q('bad label selector', 'labelSelector=tier%20in%20(');
      await q('bad label value', 'labelSelector=tier%3D-bad-');
            await s.req('cluster-wide with field selector', 'GET', `/apis/${c.spec.group}/v1/widgets?fieldSelector=spec.color%3Dblue`, { keep: ofEither });
      await s.req('limit and continue', 'GET', `${base(c)}?limit=2`, { keep: (b) => ({ names: names(b), hasContinue: Boolean((b as { metadata: { continue?: string } }).metadata.continue), remaining: (b as { metadata: { remainingItemCount?: number } }).metadata.remainingItemCount }) });
    },
  },
  {
    name: 'selectors/watch-transitions',
    async run(s) {
      const c = crd('selwatch', { selectableFields: [{ jsonPath: '.spec.color' }] });
      await s.setupCRD(c);
      const w = await s.watch(`${base(c)}?watch=1&fieldSelector=spec.color%3Dblue`);
      const lw = await s.watch(`${base(c)}?watch=1&labelSelector=tier%3Dgold`);
      await s.must('POST', base(c), { body: widget(c, 'a', { color: 'blue' }, { metadata: { labels: { tier: 'gold' } } }) });
      await s.must('POST', base(c), { body: widget(c, 'b', { color: 'red' }) });
      await s.must('PATCH', `${base(c)}/b`, { body: { spec: { color: 'blue' }, metadata: { labels: { tier: 'gold' } } }, contentType: 'application/merge-patch+json' });
      await s.must('PATCH', `${base(c)}/a`, { body: { spec: { color: 'red' }, metadata: { labels: { tier: 'silver' } } }, contentType: 'application/merge-patch+json' });
      await s.must('PATCH', `${base(c)}/b`, { body: { spec: { size: 'L' } }, contentType: 'application/merge-patch+json' });
      await s.must('DELETE', `${base(c)}/b`);
      const endsWithB = (ev: WatchEvent[]) => ev.some((e) => e.type === 'DELETED' && eventNames(e) === 'DELETED b');
      await w.until(endsWithB, 'DELETED b');
      await lw.until(endsWithB, 'DELETED b');
      s.recordEvents('field selection', w);
      s.recordEvents('label selection', lw);
      const bad = await s.watch(`${base(c)}?watch=1&fieldSelector=spec.size%3DM`);
      s.recordEvents('watch with an unsupported field label', bad);
    },
  },
  {
    name: 'selectors/deletecollection',
    async run(s) {
      const c = crd('seldel', { selectableFields: [{ jsonPath: '.spec.color' }] });
      await s.setupCRD(c);
      for (const [n, color] of [['a', 'blue'], ['b', 'red'], ['c', 'blue']]) await s.must('POST', base(c), { body: widget(c, n, { color }, { metadata: { labels: { tier: n === 'c' ? 'x' : 'y' } } }) });
      await s.req('delete blue', 'DELETE', `${base(c)}?fieldSelector=spec.color%3Dblue&labelSelector=tier%3Dy`, { keep: (b) => ({ kind: (b as { kind: string }).kind, names: names(b) }) });
      await s.req('remaining', 'GET', base(c), { keep: names });
      await s.req('unsupported label', 'DELETE', `${base(c)}?fieldSelector=spec.size%3DM`, { keep: statusOnly });
    },
  },
  // ---------------------------------------------------------------- tables, subresources
  {
    name: 'table',
    async run(s) {
      const c = crd('table', { additionalPrinterColumns: [
        { name: 'Color', type: 'string', jsonPath: '.spec.color', description: 'the color' },
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled', priority: 1 },
        { name: 'Tags', type: 'string', jsonPath: '.spec.tags' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ] });
      await s.setupCRD(c);
      await s.must('POST', base(c), { body: widget(c, 'a', { color: 'blue', replicas: 3, enabled: true, tags: ['x', 'y'] }) });
      await s.must('POST', base(c), { body: widget(c, 'b', {}) });
      const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
      await s.req('list as Table', 'GET', base(c), { accept: table });
      await s.req('get as Table', 'GET', `${base(c)}/a`, { accept: table });
      await s.req('Table without objects', 'GET', `${base(c)}?includeObject=None`, { accept: table });
      const plain = crd('table2');
      await s.setupCRD(plain);
      await s.must('POST', base(plain), { body: widget(plain, 'p', {}) });
      await s.req('Table of a CRD without columns', 'GET', base(plain), { accept: table });
      await s.req('Table of namespaces', 'GET', '/api/v1/namespaces?fieldSelector=metadata.name%3Ddefault', { accept: table });
    },
  },
  {
    name: 'subresources/status',
    async run(s) {
      const c = crd('status', { subresources: { status: {} } });
      await s.setupCRD(c);
      const created = await s.req('create with status (dropped)', 'POST', base(c), { body: widget(c, 'w1', { color: 'blue' }, { status: { phase: 'Ignored' } }) });
      const meta = (created.body as { metadata: Record<string, unknown> }).metadata;
      await s.req('put status', 'PUT', `${base(c)}/w1/status`, { body: { ...widget(c, 'w1', { color: 'CHANGED' }, { status: { phase: 'Running' } }), metadata: meta } });
      await s.req('patch status', 'PATCH', `${base(c)}/w1/status`, { body: { status: { replicas: 2 }, spec: { color: 'IGNORED' } }, contentType: 'application/merge-patch+json' });
      await s.req('put main resource (status ignored)', 'PUT', `${base(c)}/w1`, { body: widget(c, 'w1', { color: 'green' }, { status: { phase: 'Ignored' } }) });
      await s.req('get status', 'GET', `${base(c)}/w1/status`);
      await s.req('status of a missing object', 'GET', `${base(c)}/nope/status`);
      await s.req('unknown subresource', 'GET', `${base(c)}/w1/bogus`);
      await s.req('delete the status subresource', 'DELETE', `${base(c)}/w1/status`);
    },
  },
  {
    name: 'subresources/scale',
    async run(s) {
      const c = crd('scale', { subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } } });
      await s.setupCRD(c);
      await s.must('POST', base(c), { body: widget(c, 'w1', { replicas: 2 }) });
      await s.must('PATCH', `${base(c)}/w1/status`, { body: { status: { replicas: 1, selector: 'app=w1' } }, contentType: 'application/merge-patch+json' });
      const got = await s.req('get scale', 'GET', `${base(c)}/w1/scale`);
      const scale = got.body as { metadata: Record<string, unknown> };
      await s.req('put scale', 'PUT', `${base(c)}/w1/scale`, { body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: scale.metadata, spec: { replicas: 4 } } });
      await s.req('patch scale', 'PATCH', `${base(c)}/w1/scale`, { body: { spec: { replicas: 5 } }, contentType: 'application/merge-patch+json' });
      await s.req('negative replicas', 'PATCH', `${base(c)}/w1/scale`, { body: { spec: { replicas: -1 } }, contentType: 'application/merge-patch+json' });
      await s.req('stale scale update', 'PUT', `${base(c)}/w1/scale`, { body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: scale.metadata, spec: { replicas: 6 } } });
      await s.req('object after scaling', 'GET', `${base(c)}/w1`);
    },
  },
  // ---------------------------------------------------------------- watch semantics
  {
    name: 'watch/initial-events-and-bookmarks',
    async run(s) {
      const c = crd('watchlist');
      await s.setupCRD(c);
      for (const n of ['a', 'b', 'c']) await s.must('POST', base(c), { body: widget(c, n, {}) });
      const w = await s.watch(`${base(c)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
      const initialEnd = (ev: WatchEvent[]) => ev.some((e) => e.type === 'BOOKMARK' && ((e.object.metadata as { annotations?: Record<string, string> }).annotations ?? {})['k8s.io/initial-events-end'] === 'true');
      await w.until(initialEnd, 'the initial-events-end bookmark');
      const upTo = w.events.findIndex((e) => initialEnd([e]));
      s.record('initial events', w.events.slice(0, upTo + 1).map((e) => ({ type: e.type, name: (e.object.metadata as { name?: string }).name, annotations: (e.object.metadata as { annotations?: unknown }).annotations, kind: e.object.kind, apiVersion: e.object.apiVersion })));
      const bad = await s.watch(`${base(c)}?watch=1&sendInitialEvents=true`);
      s.recordEvents('sendInitialEvents without resourceVersionMatch', bad);
      await s.req('sendInitialEvents on a list', 'GET', `${base(c)}?sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, { keep: ofEither });
    },
  },
  {
    name: 'watch/resource-versions',
    async run(s) {
      const c = crd('watchrv');
      await s.setupCRD(c);
      const first = await s.must('POST', base(c), { body: widget(c, 'a', {}) });
      const rv = (first.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      await s.must('POST', base(c), { body: widget(c, 'b', {}) });
      const from = await s.watch(`${base(c)}?watch=1&resourceVersion=${rv}`);
      await from.until((ev) => ev.some((e) => eventNames(e) === 'ADDED b'), 'ADDED b');
      s.recordEvents('watch from the first create', from);
      await s.req('list with resourceVersion=0', 'GET', `${base(c)}?resourceVersion=0`, { keep: names });
      await s.req('list with an unparsable resourceVersion', 'GET', `${base(c)}?resourceVersion=abc`, { keep: statusOnly });
      await s.req('watch with an unparsable resourceVersion', 'GET', `${base(c)}?watch=1&resourceVersion=abc`, { keep: statusOnly });
      await s.req('resourceVersionMatch without resourceVersion', 'GET', `${base(c)}?resourceVersionMatch=Exact`, { keep: statusOnly });
      await s.req('bad resourceVersionMatch', 'GET', `${base(c)}?resourceVersionMatch=Sometimes&resourceVersion=1`, { keep: statusOnly });
      await s.req('continue with a bad token', 'GET', `${base(c)}?limit=1&continue=bogus`, { keep: statusOnly });
      // The server's own token rewritten: json.Unmarshal matches keys case-insensitively, the last one winning.
      const page = await s.must('GET', `${base(c)}?limit=1`);
      const issued = JSON.parse(Buffer.from((page.body as { metadata: { continue: string } }).metadata.continue, 'base64url').toString('utf8')) as { rv: number; start: string };
      const token = (json: string) => Buffer.from(json, 'utf8').toString('base64url');
      await s.req('continue with keys in another case', 'GET', `${base(c)}?limit=1&continue=${token(`{"v":"x","V":"meta.k8s.io/v1","Rv":${issued.rv},"sTaRt":${JSON.stringify(issued.start)}}`)}`, { keep: names });
      await s.req('continue with a later empty START', 'GET', `${base(c)}?limit=1&continue=${token(`{"v":"meta.k8s.io/v1","rv":${issued.rv},"start":${JSON.stringify(issued.start)},"START":""}`)}`, { keep: statusOnly });
    },
  },
  {
    // A resourceVersion the server has not reached: the reference's watch cache waits 3 s for it
    // (waitUntilFreshAndBlock), then answers 504 "Timeout: Too large resource version" to a get and to
    // lists in every resourceVersionMatch mode (and to a continue token's), and as an ERROR event to a
    // watch with sendInitialEvents; a plain watch stays open and silent. A write reaching the version
    // during the wait is not scripted here: on the reference, background writes (leases) move the
    // revision too (packages/apiserver/test/futureResourceVersion.test.ts covers it).
    name: 'list/future-resource-version',
    async run(s) {
      const c = crd('futurerv');
      await s.setupCRD(c);
      const first = await s.must('POST', base(c), { body: widget(c, 'a', {}) });
      const rvA = (first.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      await s.must('POST', base(c), { body: widget(c, 'b', {}) });
      await s.req('list at the first create with a limit (the legacy exact match)', 'GET', `${base(c)}?resourceVersion=${rvA}&limit=500`, { keep: (b) => ({ names: names(b), resourceVersion: (b as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion }) });
      await s.req('list at the first create without a limit', 'GET', `${base(c)}?resourceVersion=${rvA}`, { keep: names });
      await s.req('get with an unparsable resourceVersion', 'GET', `${base(c)}/a?resourceVersion=abc`);
      await s.req('get with a resourceVersion beyond 64 bits', 'GET', `${base(c)}/a?resourceVersion=99999999999999999999`);
      const page = await s.must('GET', `${base(c)}?limit=1`);
      const listed = page.body as { metadata: { resourceVersion: string; continue: string } };
      const future = String(BigInt(listed.metadata.resourceVersion) + 1_000_000n);
      const token = JSON.parse(Buffer.from(listed.metadata.continue, 'base64url').toString('utf8')) as { rv: number };
      const futureToken = Buffer.from(JSON.stringify({ ...token, rv: Number(future) }), 'utf8').toString('base64url');
      // Every wait takes 3 s: they run together, and are recorded in this order.
      const reads: [string, string][] = [
        ['get', `${base(c)}/a?resourceVersion=${future}`],
        ['get of a missing object', `${base(c)}/nope?resourceVersion=${future}`],
        ['list', `${base(c)}?resourceVersion=${future}`],
        ['list with a limit', `${base(c)}?resourceVersion=${future}&limit=1`],
        ['list NotOlderThan', `${base(c)}?resourceVersion=${future}&resourceVersionMatch=NotOlderThan`],
        ['list Exact', `${base(c)}?resourceVersion=${future}&resourceVersionMatch=Exact`],
        ['list with a continue token', `${base(c)}?limit=1&continue=${futureToken}`],
      ];
      const watchList = s.watch(`${base(c)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${future}`);
      const plain = s.watch(`${base(c)}?watch=1&allowWatchBookmarks=true&resourceVersion=${future}&timeoutSeconds=5`);
      const replies = await Promise.all(reads.map(([, path]) => s.raw('GET', path)));
      for (const [i, [label]] of reads.entries()) s.record(label, { status: replies[i].status, body: replies[i].body });
      const wl = await watchList;
      await s.until(async () => wl.ended(), 'end of the watch with sendInitialEvents');
      s.recordEvents('watch with sendInitialEvents', wl);
      const w = await plain;
      await s.until(async () => w.ended(), 'end of the watch at its timeout');
      s.recordEvents('watch until its timeout', w, { bookmarks: true });
      // Events have no watch cache: etcd answers at once, without retryAfterSeconds.
      const events = '/api/v1/namespaces/default/events';
      await s.must('POST', events, { body: { metadata: { name: 'futurerv-event' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm' } });
      await s.req('event get', 'GET', `${events}/futurerv-event?resourceVersion=${future}`);
      await s.req('event list', 'GET', `${events}?resourceVersion=${future}`);
      await s.req('event list Exact', 'GET', `${events}?resourceVersion=${future}&resourceVersionMatch=Exact`);
      await s.req('event get with an unparsable resourceVersion', 'GET', `${events}/futurerv-event?resourceVersion=abc`);
      await s.raw('DELETE', `${events}/futurerv-event`);
    },
  },
  // ---------------------------------------------------------------- discovery and OpenAPI
  {
    name: 'discovery',
    async run(s) {
      const c = crd('disco', { shortNames: ['dw'], subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } });
      await s.setupCRD(c);
      await s.req('group', 'GET', `/apis/${c.spec.group}`);
      await s.req('group version', 'GET', `/apis/${c.spec.group}/v1`);
      await s.req('aggregated /apis (this group)', 'GET', '/apis', {
        accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
        keep: (b) => ({ kind: (b as { kind: string }).kind, apiVersion: (b as { apiVersion: string }).apiVersion, group: ((b as { items: { metadata: { name: string } }[] }).items ?? []).find((i) => i.metadata.name === c.spec.group) }),
      });
      await s.req('legacy /apis (this group)', 'GET', '/apis', { keep: (b) => ((b as { groups: { name: string }[] }).groups ?? []).find((g) => g.name === c.spec.group) });
      await s.req('core v1 namespaces resource', 'GET', '/api/v1', { keep: (b) => ((b as { resources: { name: string }[] }).resources ?? []).filter((r) => ['namespaces', 'configmaps', 'secrets', 'namespaces/status'].includes(r.name)) });
      await s.req('missing group', 'GET', '/apis/nope.example.com/v1', { keep: 'status' });
    },
  },
  {
    name: 'openapi/v3',
    async run(s) {
      const c = crd('openapi', { selectableFields: [{ jsonPath: '.spec.color' }], subresources: { status: {} } });
      await s.setupCRD(c);
      await s.until(async () => (await s.raw('GET', `/openapi/v3/apis/${c.spec.group}/v1`)).status === 200, 'openapi v3 path');
      await s.req('index entry', 'GET', '/openapi/v3', { keep: (b) => Object.keys((b as { paths: Record<string, unknown> }).paths).filter((p) => p.includes(c.spec.group)) });
      const key = `com.example.diff.openapi.v1.Widget`;
      await s.req('kind schema', 'GET', `/openapi/v3/apis/${c.spec.group}/v1`, { keep: (b) => (b as { components: { schemas: Record<string, unknown> } }).components.schemas[key] });
      await s.req('paths', 'GET', `/openapi/v3/apis/${c.spec.group}/v1`, { keep: (b) => Object.keys((b as { paths: Record<string, unknown> }).paths).sort() });
      await s.req('list operation parameters', 'GET', `/openapi/v3/apis/${c.spec.group}/v1`, { keep: (b) => {
        const p = (b as { paths: Record<string, { get?: { parameters?: { name: string }[] }; parameters?: { name?: string; $ref?: string }[] }> }).paths[`/apis/${c.spec.group}/v1/namespaces/{namespace}/widgets`];
        return { get: (p?.get?.parameters ?? []).map((x) => x.name ?? x).sort(), common: (p?.parameters ?? []).map((x) => x.name ?? x.$ref).sort() };
      } });
      await s.req('schema names', 'GET', `/openapi/v3/apis/${c.spec.group}/v1`, { keep: (b) => Object.keys((b as { components: { schemas: Record<string, unknown> } }).components.schemas).sort() });
    },
  },
  // ---------------------------------------------------------------- built-in kinds
  {
    name: 'builtin/namespaces-configmaps-secrets',
    async run(s) {
      await s.req('create namespace', 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'diff-ns' } } });
      await s.req('namespaces by name', 'GET', '/api/v1/namespaces?fieldSelector=metadata.name%3Ddiff-ns', { keep: names });
      await s.req('namespaces by phase', 'GET', '/api/v1/namespaces?fieldSelector=status.phase%3DActive,metadata.name%3Ddiff-ns', { keep: names });
      await s.req('namespaces: unsupported label', 'GET', '/api/v1/namespaces?fieldSelector=spec.x%3Dy', { keep: statusOnly });
      await s.req('configmap', 'POST', '/api/v1/namespaces/diff-ns/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } } });
      await s.req('configmap: bad key', 'POST', '/api/v1/namespaces/diff-ns/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm2' }, data: { 'a b': 'x' } }, keep: statusOnly });
      await s.req('secret', 'POST', '/api/v1/namespaces/diff-ns/secrets', { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', stringData: { a: 'b' } } });
      await s.req('secrets by type', 'GET', '/api/v1/namespaces/diff-ns/secrets?fieldSelector=type%3DOpaque', { keep: names });
      await s.req('pods: unsupported label', 'GET', '/api/v1/pods?fieldSelector=spec.nope%3Dx', { keep: statusOnly });
      await s.req('pods by node', 'GET', '/api/v1/namespaces/diff-ns/pods?fieldSelector=spec.nodeName%3Dn1', { keep: names });
      await s.req('delete namespace', 'DELETE', '/api/v1/namespaces/diff-ns', { keep: (b) => ({ kind: (b as { kind: string }).kind, phase: (b as { status?: { phase?: string } }).status?.phase, deleting: Boolean((b as { metadata?: { deletionTimestamp?: string } }).metadata?.deletionTimestamp) }) });
      await s.req('create in a terminating namespace', 'POST', '/api/v1/namespaces/diff-ns/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } }, keep: statusOnly });
    },
  },
  {
    name: 'builtin/leases',
    async run(s) {
      const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } };
      await s.req('create', 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: lease });
      await s.req('invalid duration', 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: { ...lease, metadata: { name: 'l2' }, spec: { leaseDurationSeconds: 0 } }, keep: statusOnly });
      await s.req('get', 'GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/leader');
    },
  },
  // ---------------------------------------------------------------- the gate-off emulation
  {
    name: 'gate-off/selectable-fields-dropped',
    servers: 'gateOff',
    async run(s) {
      const c = crd('gateoff', { selectableFields: [{ jsonPath: '.spec.color' }] });
      await s.createCRD('create with selectableFields', c, { keep: (b) => (b as CrdLike).spec?.versions?.map((v) => ({ name: v.name, selectableFields: v.selectableFields })) ?? statusOnly(b) });
      await s.must('POST', base(c), { body: widget(c, 'a', { color: 'blue' }) });
      await s.req('field selector on spec.color', 'GET', `${base(c)}?fieldSelector=spec.color%3Dblue`, { keep: ofEither });
      await s.req('field selector on metadata.name', 'GET', `${base(c)}?fieldSelector=metadata.name%3Da`, { keep: ofEither });
      await s.req('invalid selectableFields are not validated', 'POST', crdPath, { body: crd('gateoff2', { selectableFields: [{ jsonPath: 'nope' }] }), keep: (b) => (b as CrdLike).spec?.versions?.map((v) => ({ selectableFields: v.selectableFields })) ?? statusOnly(b) });
    },
  },
  ...builtinScenarios,
];
