import { expect } from 'chai';
import { applyJSONPatch, applyMergePatch } from '../src/patch.js';

describe('applyMergePatch', () => {
  // The examples of RFC 7386, Appendix A.
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  cases.forEach(([target, patch, result], i) => {
    it(`applies RFC 7386 example ${i + 1}`, () => {
      expect(applyMergePatch(target, patch)).to.deep.equal(result);
    });
  });

  // The apiserver applies merge patches with gopkg.in/evanphx/json-patch.v4's MergePatch (merge.go):
  // a value set where the target has none, null or a non-object has its nulls pruned (pruneNulls: keys
  // of objects at any depth, also inside arrays; null array elements stay), while an array or scalar
  // replacing an object is kept as sent. Found by the randomized differential suite.
  it('prunes nulls inside a value it sets as evanphx/json-patch does, arrays included', () => {
    expect(applyMergePatch({ spec: {} }, { spec: { list: [1, { y: null, z: { w: null } }, null] } })).to.deep.equal({ spec: { list: [1, { z: {} }, null] } });
    expect(applyMergePatch({ spec: { list: 'x' } }, { spec: { list: [{ y: null }] } })).to.deep.equal({ spec: { list: [{}] } });
    expect(applyMergePatch({ spec: { list: [1] } }, { spec: { list: [{ y: null }] } })).to.deep.equal({ spec: { list: [{}] } });
    expect(applyMergePatch({ spec: { m: 1 } }, { spec: { m: { a: [{ y: null }], b: null } } })).to.deep.equal({ spec: { m: { a: [{}] } } });
    expect(applyMergePatch({ spec: { m: { a: 1 } } }, { spec: { m: [{ y: null }] } })).to.deep.equal({ spec: { m: [{ y: null }] } });
  });

  it('merges patches nested 100,000 levels deep without recursion, leaving the target untouched', () => {
    const nested = (n: number, leaf: string): string => '{"a":'.repeat(n) + leaf + '}'.repeat(n);
    const target = JSON.parse(nested(100_000, '{"keep":1,"drop":2}')) as unknown;
    const merged = applyMergePatch(target, JSON.parse(nested(100_000, '{"drop":null,"add":[{"x":1}]}')));
    let leaf = merged as Record<string, unknown>;
    let original = target as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) {
      leaf = leaf.a as Record<string, unknown>;
      original = original.a as Record<string, unknown>;
      expect(leaf).to.not.equal(original);
    }
    expect(leaf).to.deep.equal({ keep: 1, add: [{ x: 1 }] });
    expect(original).to.deep.equal({ keep: 1, drop: 2 });
  });
});

describe('deepEqual', () => {
  it('compares values nested 100,000 levels deep without recursion, ignoring key order and undefined members', async () => {
    const { deepEqual } = await import('../src/internal/deepEqual.js');
    const nested = (n: number, leaf: string): unknown => JSON.parse('{"a":'.repeat(n) + leaf + '}'.repeat(n));
    expect(deepEqual(nested(100_000, '{"x":1,"y":[1,2]}'), nested(100_000, '{"y":[1,2],"x":1}'))).to.equal(true);
    expect(deepEqual(nested(100_000, '{"x":1}'), nested(100_000, '{"x":2}'))).to.equal(false);
    expect(deepEqual(nested(100_000, '[1,2]'), nested(100_000, '[1,2,3]'))).to.equal(false);
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).to.equal(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).to.equal(false);
    expect(deepEqual({ n: 12345678901234567890n }, { n: 12345678901234567890n })).to.equal(true);
    expect(deepEqual({ n: 5n }, { n: 5 })).to.equal(true);
    expect(deepEqual([1], { 0: 1 })).to.equal(false);
    expect(deepEqual(null, {})).to.equal(false);
  });
});

describe('applyJSONPatch', () => {
  it('applies add, remove, replace, move, copy and test (RFC 6902)', () => {
    const doc = { a: { b: [1, 2] }, c: 'x' };
    const out = applyJSONPatch(doc, [
      { op: 'add', path: '/a/b/1', value: 9 },
      { op: 'add', path: '/a/b/-', value: 3 },
      { op: 'replace', path: '/c', value: 'y' },
      { op: 'copy', from: '/c', path: '/d' },
      { op: 'move', from: '/d', path: '/e' },
      { op: 'remove', path: '/a/b/0' },
      { op: 'test', path: '/e', value: 'y' },
      { op: 'add', path: '/f~1g', value: true },
    ]);
    expect(out).to.deep.equal({ a: { b: [9, 2, 3] }, c: 'y', e: 'y', 'f/g': true });
    expect(doc).to.deep.equal({ a: { b: [1, 2] }, c: 'x' });
  });

  it('fails on a missing path and on a failed test', () => {
    expect(() => applyJSONPatch({}, [{ op: 'remove', path: '/nope' }])).to.throw('remove operation does not apply: doc is missing path: "/nope"');
    expect(() => applyJSONPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).to.throw('test failed');
  });

  it('limits what copy operations add to 3 MiB of JSON, as the apiserver does (JSONPatchMaxCopyBytes)', () => {
    // A 100 KiB string is 102,402 bytes of JSON with its quotes: 30 copies fit in 3 MiB, the 31st does not.
    const doc = { s: 'x'.repeat(100 * 1024) };
    const copies = (n: number): unknown[] => Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '/s', path: `/c${i}` }));
    expect(Object.keys(applyJSONPatch(doc, copies(30)) as object)).to.have.length(31);
    expect(() => applyJSONPatch(doc, copies(31))).to.throw('Unable to complete the copy, the accumulated size increase of copy is 3174462, exceeding the limit 3145728');
    // A member copied into itself doubles with each copy: refused long before memory runs out.
    const self = Array.from({ length: 64 }, (_, i) => ({ op: 'copy', from: '/d', path: `/d/k${i}` }));
    expect(() => applyJSONPatch({ d: { s: 'x'.repeat(1000) } }, self)).to.throw('exceeding the limit 3145728');
  });

  // gopkg.in/evanphx/json-patch.v4 (the apiserver's): findObject has no parent for "" (patch.go), so add
  // and the from of move and copy do not apply to the whole document; replace of "" swaps in an object or
  // array and, for another value, wraps a nil error (no error, no change); test of "" compares the whole
  // document. kube-apiserver 1.34.4 answers so (test/differential/hostile.test.ts).
  // gopkg.in/evanphx/json-patch.v4 patch.go: partialArray reads indexes with strconv.Atoi and counts negative
  // ones from the end (SupportNegativeIndices); partialDoc.get of a missing key is no error, so replace adds
  // the member and test passes against null. kube-apiserver 1.34.4 answers so (test/differential/hostile.test.ts).
  it('reads indexes, replaces and tests as evanphx/json-patch v4 does', () => {
    const doc = { l: [1, 2, 3], o: { k: 'v' } };
    expect(applyJSONPatch(doc, [{ op: 'replace', path: '/l/01', value: 9 }])).to.deep.equal({ l: [1, 9, 3], o: { k: 'v' } });
    expect(applyJSONPatch(doc, [{ op: 'remove', path: '/l/-1' }])).to.deep.equal({ l: [1, 2], o: { k: 'v' } });
    expect(applyJSONPatch(doc, [{ op: 'add', path: '/l/+0', value: 0 }])).to.deep.equal({ l: [0, 1, 2, 3], o: { k: 'v' } });
    expect(() => applyJSONPatch(doc, [{ op: 'replace', path: '/l/3', value: 0 }])).to.throw('index out of range');
    expect(() => applyJSONPatch(doc, [{ op: 'remove', path: '/l/-4' }])).to.throw('index out of range');
    expect(applyJSONPatch(doc, [{ op: 'replace', path: '/o/new', value: 1 }])).to.deep.equal({ l: [1, 2, 3], o: { k: 'v', new: 1 } });
    expect(applyJSONPatch(doc, [{ op: 'test', path: '/o/missing', value: null }])).to.deep.equal(doc);
    expect(() => applyJSONPatch(doc, [{ op: 'test', path: '/o/missing', value: 1 }])).to.throw('test failed');
  });

  // gopkg.in/evanphx/json-patch.v4 patch.go: an operation's value is a json.RawMessage (lazyNode), and
  // lazyNode.equal compares objects by members in any order, arrays by elements, and anything else by
  // its compacted bytes against the document's as json.Marshal writes it; a value an earlier operation
  // put there keeps that operation's bytes, through moves, copies and array inserts. kube-apiserver
  // 1.34.4 answers so (a test of 1.0 against a stored 1 fails, of {"b":2,"a":"x"} against {"a":"x","b":2} passes).
  it('tests values as written, as evanphx/json-patch v4 compares them', () => {
    const doc = { i: 1, n: 1.5, s: 'a<b', o: { a: 'x', b: 2 }, l: [1, 2] };
    const passes = (ops: string): boolean => {
      try {
        applyJSONPatch(doc, JSON.parse(ops), { text: ops });
        return true;
      } catch (err) {
        if (err instanceof Error && err.message.includes('test failed')) return false;
        throw err;
      }
    };
    const test = (path: string, value: string): string => `[{"op":"test","path":"${path}","value":${value}}]`;
    const cases: [string, boolean][] = [
      [test('/i', '1'), true], [test('/i', '1.0'), false], [test('/i', '1e0'), false], [test('/n', '1.5'), true], [test('/n', '1.50'), false],
      [test('/s', '"a\\u003cb"'), true], [test('/s', '"a<b"'), false], [test('/s', '"a\\u003Cb"'), false],
      [test('/o', '{"b":2,"a":"x"}'), true], [test('/o', '{ "b" : 3, "a":"x", "b":2 }'), true], [test('/o', '{"\\u0062":2,"a":"x"}'), true], [test('/o', '{"b":2,"a":"x","c":null}'), false],
      [test('/l', '[ 1 , 2 ]'), true], [test('/l', '[1.0,2]'), false], [test('/i', '"1"'), false], [test('/o', '"x"'), false],
      ['[{"op":"add","path":"/x","value":7.0},{"op":"test","path":"/x","value":7.0}]', true],
      ['[{"op":"add","path":"/x","value":7.0},{"op":"test","path":"/x","value":7}]', false],
      ['[{"op":"add","path":"/x","value":{"b":1.0}},{"op":"test","path":"/x/b","value":1.0}]', true],
      ['[{"op":"add","path":"/x","value":{"b":1.0,"c":2.0}},{"op":"replace","path":"/x/b","value":3.0},{"op":"test","path":"/x","value":{"b":3.0,"c":2.0}}]', true],
      ['[{"op":"add","path":"/x","value":{"b":1.0,"c":2.0}},{"op":"replace","path":"/x/b","value":3.0},{"op":"test","path":"/x","value":{"b":3.0,"c":2}}]', false],
      ['[{"op":"add","path":"/l/1","value":7.0},{"op":"add","path":"/l/0","value":0},{"op":"test","path":"/l/2","value":7.0}]', true],
      ['[{"op":"add","path":"/l/1","value":7.0},{"op":"add","path":"/l/0","value":0},{"op":"test","path":"/l/2","value":7}]', false],
      ['[{"op":"add","path":"/m","value":5.0},{"op":"move","from":"/m","path":"/k"},{"op":"test","path":"/k","value":5.0}]', true],
      ['[{"op":"add","path":"/m","value":5.0},{"op":"copy","from":"/m","path":"/k"},{"op":"test","path":"/k","value":5}]', false],
    ];
    for (const [ops, want] of cases) expect(passes(ops), ops).to.equal(want);
    // Without the patch's text (a webhook's patch), values compare as values, objects in any order.
    expect(applyJSONPatch(doc, [{ op: 'test', path: '/o', value: { b: 2, a: 'x' } }])).to.deep.equal(doc);
  });

  // evanphx/json-patch v4: an add or replace without a value puts the nil node there, which marshals as
  // null (kube-apiserver 1.34.4 then prunes it from a custom resource as it prunes an explicit null).
  it('adds and replaces null for an absent value', () => {
    expect(applyJSONPatch({ a: 1 }, [{ op: 'add', path: '/b' }, { op: 'replace', path: '/a' }])).to.deep.equal({ a: null, b: null });
    expect(applyJSONPatch({ l: [1] }, [{ op: 'add', path: '/l/0' }])).to.deep.equal({ l: [null, 1] });
  });

  // evanphx/json-patch v4 copy: partialDoc.get of a missing key is no error, so a copy from a missing member
  // of an object adds null (kube-apiserver 1.34.4 answers 200 with `"c":null`); a move from it, a missing
  // array element or a missing parent fail.
  it('copies null from a missing member of an object', () => {
    const doc = { o: { a: 1 }, l: [1] };
    expect(applyJSONPatch(doc, [{ op: 'copy', from: '/o/missing', path: '/o/c' }, { op: 'copy', from: '/o/missing', path: '/l/0' }])).to.deep.equal({ o: { a: 1, c: null }, l: [null, 1] });
    expect(() => applyJSONPatch(doc, [{ op: 'move', from: '/o/missing', path: '/o/m' }])).to.throw('missing value');
    expect(() => applyJSONPatch(doc, [{ op: 'copy', from: '/l/5', path: '/o/d' }])).to.throw('missing value');
    expect(() => applyJSONPatch(doc, [{ op: 'copy', from: '/nope/deeper', path: '/o/e' }])).to.throw('missing value');
    expect(() => applyJSONPatch(doc, [{ op: 'copy', from: '/o/a/q', path: '/o/f' }])).to.throw('missing value');
  });

  it('treats the whole document ("") as evanphx/json-patch v4 does', () => {
    const doc = { a: 1 };
    expect(() => applyJSONPatch(doc, [{ op: 'copy', from: '', path: '/b' }])).to.throw('copy operation does not apply');
    expect(() => applyJSONPatch(doc, [{ op: 'move', from: '', path: '/b' }])).to.throw('move operation does not apply');
    expect(() => applyJSONPatch(doc, [{ op: 'add', path: '', value: { b: 2 } }])).to.throw('add operation does not apply');
    expect(() => applyJSONPatch(doc, [{ op: 'remove', path: '' }])).to.throw('remove operation does not apply');
    expect(applyJSONPatch(doc, [{ op: 'replace', path: '', value: 1 }])).to.deep.equal({ a: 1 });
    expect(applyJSONPatch(doc, [{ op: 'replace', path: '', value: { b: 2 } }])).to.deep.equal({ b: 2 });
    expect(applyJSONPatch(doc, [{ op: 'test', path: '', value: { a: 1 } }])).to.deep.equal({ a: 1 });
  });
});

describe('checkPatchedDepth', () => {
  const nested = (n: number): unknown => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n));
  const object = (data: number, fields: number): unknown => ({
    apiVersion: 'v', kind: 'K', spec: { data: nested(data) },
    metadata: { name: 'n', managedFields: [{ manager: 'm', fieldsV1: nested(fields) }] },
  });

  it('passes a patched object of 10,000 levels, and refuses 10,001 with the apiserver\'s 422 (handlers/patch.go applyPatchToCurrentObject)', async () => {
    const { checkPatchedDepth } = await import('../src/internal/nesting.js');
    expect(() => checkPatchedDepth(object(9_998, 1))).to.not.throw();
    expect(() => checkPatchedDepth(object(9_999, 1))).to.throw(/^ "" is invalid: patch: Invalid value: "\{.*": couldn't get version\/kind; json parse error: invalid character '\{' exceeded max depth$/s)
      .with.property('reason', 'Invalid');
  });

  it('leaves managed fields out of the count: the server rewrites them, and they nest deeper than the fields they list', async () => {
    const { checkPatchedDepth } = await import('../src/internal/nesting.js');
    expect(() => checkPatchedDepth(object(9_998, 10_010))).to.not.throw();
  });
});
