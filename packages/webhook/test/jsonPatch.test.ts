import { expect } from 'chai';
import fc from 'fast-check';
import { createJSONPatch, escapePointerToken, jsonEqual } from '@kubekit/webhook';
import { applyPatch } from './internal/applyPatch.js';

describe('createJSONPatch', () => {
  it('emits replace, add and remove operations with RFC 6901 escaping', () => {
    expect(createJSONPatch({ spec: { a: 1, 'x/y': 1, 'm~n': 2 } }, { spec: { a: 2, b: true, 'm~n': 2 } })).to.deep.equal([
      { op: 'remove', path: '/spec/x~1y' },
      { op: 'replace', path: '/spec/a', value: 2 },
      { op: 'add', path: '/spec/b', value: true },
    ]);
    expect(escapePointerToken('a~/b')).to.equal('a~0~1b');
  });

  it('grows and shrinks arrays at their end, removing from the last index down', () => {
    expect(createJSONPatch({ l: [1, 2, 3] }, { l: [1] })).to.deep.equal([{ op: 'remove', path: '/l/2' }, { op: 'remove', path: '/l/1' }]);
    expect(createJSONPatch({ l: [1] }, { l: [0, 2, 3] })).to.deep.equal([
      { op: 'replace', path: '/l/0', value: 0 }, { op: 'add', path: '/l/1', value: 2 }, { op: 'add', path: '/l/2', value: 3 },
    ]);
  });

  it('gives an empty patch for equal documents, big integers included', () => {
    expect(createJSONPatch({ a: [1, { b: null }], n: 12345678901234567890n }, { a: [1, { b: null }], n: 12345678901234567890n })).to.deep.equal([]);
    expect(jsonEqual(1, 1n)).to.equal(true);
  });

  it('treats a __proto__ key as data, without touching any prototype', () => {
    const to = JSON.parse('{"metadata":{"__proto__":{"polluted":true}}}') as unknown;
    const patch = createJSONPatch({ metadata: {} }, to);
    expect(patch).to.deep.equal([{ op: 'add', path: '/metadata/__proto__', value: { polluted: true } }]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(jsonEqual(applyPatch({ metadata: {} }, patch), to)).to.equal(true);
  });

  it('refuses documents nested deeper than 10,000 levels', () => {
    let deep: unknown = 1;
    let other: unknown = 2;
    for (let i = 0; i < 10_050; i++) {
      deep = { a: deep };
      other = { a: other };
    }
    expect(() => createJSONPatch(deep, other)).to.throw(/nested deeper than 10000 levels/);
  });

  it('produces a patch that turns the first document into the second (property)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.string(), fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('a', 'b', '~', '/', '__proto__')), tie('value'), { maxKeys: 4 })),
    })).value;
    fc.assert(fc.property(json, json, (a, b) => jsonEqual(applyPatch(a, createJSONPatch(a, b)), b)), { numRuns: 300 });
  });
});
