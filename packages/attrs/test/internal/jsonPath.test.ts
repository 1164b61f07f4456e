import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import fc from 'fast-check';
import { closureReader, generateReader, parseSimplePath } from '../../src/internal/jsonPath.js';
import { loopRecordBuilder, makeResourceFields } from '../../src/internal/makeResourceFields.js';

describe('parseSimplePath', () => {
  it('splits dotted and bracketed names as the apiserver\'s field path scanner does', () => {
    expect(parseSimplePath('.spec.color')).to.deep.equal(['spec', 'color']);
    expect(parseSimplePath(".spec['app-name'].x")).to.deep.equal(['spec', 'app-name', 'x']);
    expect(parseSimplePath("['spec']['a/b']")).to.deep.equal(['spec', 'a/b']);
    expect(parseSimplePath('.a(b)')).to.deep.equal(['a(b)']);
  });

  it('reports what is wrong with a path that is not simple', () => {
    expect(parseSimplePath('spec')).to.equal('expected [ or . but got: spec');
    expect(parseSimplePath('.spec.')).to.equal('unexpected end of JSON path');
    expect(parseSimplePath('.spec[0]')).to.equal('expected single quoted string but got 0');
    expect(parseSimplePath(".spec['x'")).to.equal('unexpected end of JSON path');
    expect(parseSimplePath('')).to.equal('empty JSON path');
  });
});

describe('generateReader', () => {
  const name = fc.oneof(
    fc.constantFrom('spec', 'a', 'constructor', '__proto__', 'toString', 'length', '0', 'hasOwnProperty'),
    fc.string({ maxLength: 6 }),
  );
  const json = fc.jsonValue({ maxDepth: 4 }).chain((v) => fc.constant(v));

  it('reads exactly what the closure reader reads, for any names and JSON (property)', () => {
    fc.assert(fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), json, (names, value) => {
      // Wrap the value so the path can find it: {names[0]: {names[1]: ... value}}.
      const nested = names.reduceRight<unknown>((acc, n) => JSON.parse(`{${JSON.stringify(n)}:${JSON.stringify(acc) ?? 'null'}}`), value);
      for (const o of [nested, value, { spec: value }]) {
        expect(generateReader(names)(o)).to.deep.equal(closureReader(names)(o));
      }
    }));
  });

  it('treats names as data, never as code', () => {
    const hostile = ['"]; globalThis.attrsPwned = 1; //', "'); globalThis.attrsPwned = 1; //", '\u2028', '${1}', '\\', '\ud800'];
    for (const n of hostile) {
      const reader = generateReader(['spec', n]);
      expect(reader({ spec: { [n]: 'v' } })).to.equal('v');
      expect(reader({ spec: {} })).to.equal(undefined);
    }
    expect((globalThis as Record<string, unknown>).attrsPwned).to.equal(undefined);
  });
});

describe('loopRecordBuilder', () => {
  it('builds the same field sets as the generated builder, __proto__ included (property)', () => {
    const keys = ['metadata.name', '__proto__', 'spec.x', 'constructor'];
    const extractors = keys.map((_, i) => (o: unknown) => `${i}:${typeof o}`);
    const generated = makeResourceFields({
      namespaced: false, metadataNamespaceField: false, fields: keys.slice(1).map((k, i) => [k, extractors[i + 1]] as const),
      fieldLabels: [], labelAliases: {}, convertFieldLabel: (l, v) => [l, v],
    }).fieldSet;
    const loop = loopRecordBuilder(keys, extractors);
    fc.assert(fc.property(fc.jsonValue(), (o) => {
      const a = loop(o);
      const b = generated(o);
      expect(Object.getPrototypeOf(a)).to.equal(Object.prototype);
      expect(Object.getPrototypeOf(b)).to.equal(Object.prototype);
      expect(Object.keys(b)).to.deep.equal(Object.keys(a));
      for (const k of keys.slice(1)) expect(b[k]).to.equal(a[k]);
    }));
  });
});

describe('compileReader', () => {
  it('falls back to closures where code generation is disallowed', function () {
    // The child (tsx compiling the sources) is bounded at 60 s by spawnSync below; mocha's default 20 s
    // would cut a slow child on a loaded machine first. 60 s plus 10 s for the assertions.
    this.timeout(70_000);
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const script = `
      import { compileFieldSet } from '@kubekit/attrs';
      let blocked = false;
      try { new Function('return 1'); } catch { blocked = true; }
      const f = compileFieldSet({ namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.__proto__' }] });
      const set = f(JSON.parse('{"metadata":{"name":"a"},"spec":{"color":"blue"},"__proto__":"p"}'));
      console.log(JSON.stringify({ blocked, set, proto: Object.getPrototypeOf(set) === Object.prototype }));`;
    const run = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', '--conditions=kubekit-source', '--input-type=module', '-e', script], {
      cwd: root, encoding: 'utf8', timeout: 60_000,
    });
    expect(run.status, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout.trim())).to.deep.equal(JSON.parse(
      '{"blocked":true,"set":{"metadata.name":"a","metadata.namespace":"","spec.color":"blue","__proto__":"p"},"proto":true}',
    ));
  });
});
