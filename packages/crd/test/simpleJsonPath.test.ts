import { expect } from 'chai';
import { resolveFieldPath, validateSimpleJSONPath } from '@kubekit/crd';
import type { JSONSchemaProps } from '@kubekit/crd';

// Ported from apiextensions-apiserver pkg/apis/apiextensions/validation/validation_test.go TestValidateFieldPath.
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    foo: { type: 'object', additionalProperties: { type: 'object', properties: { f1: { type: 'number' } } } },
    a: {
      type: 'object',
      properties: {
        bbb: { type: 'object', properties: { c: { type: 'number' }, 34: { type: 'number' } } },
        'bbb.c': { type: 'object', properties: { 'a-b34': { type: 'number' } } },
      },
    },
    list: { type: 'array', items: { type: 'object', properties: { a: { type: 'number' }, 'a-b.34': { type: 'number' } } } },
  },
};

const cases: [name: string, path: string, error: string][] = [
  ['Valid .a', '.a', ''],
  ['Valid .a.b', '.a.bbb', ''],
  ['Valid .foo.f1', '.foo.f1', ''],
  ['Invalid map syntax .a.b', ".a['bbb']", ''],
  ["Valid .a['bbb.c']", ".a['bbb.c']", ''],
  ["Valid .a['bbb.c'].a-b34", ".a['bbb.c'].a-b34", ''],
  ["Valid .a['bbb.c']['a-b34']", ".a['bbb.c']['a-b34']", ''],
  ['Valid .a.bbb.c', '.a.bbb.c', ''],
  ['Valid .a.bbb.34', ".a.bbb['34']", ''],
  ['Invalid map key', '.a.foo', 'does not refer to a valid field'],
  ['Malformed map key', '.a.bbb[0]', 'expected single quoted string but got 0'],
  ['number in field names', '.a.bbb.34', ''],
  ['Special field names', ".a.bbb['34']", ''],
  ['Valid .list', '.list', ''],
  ['Invalid .list[1]', '.list[1]', 'expected single quoted string but got 1'],
  ['Unsopported .list.a', '.list.a', 'does not refer to a valid field'],
  ["Unsupported .list['a-b.34']", ".list['a-b.34']", 'does not refer to a valid field'],
  ['Invalid .list.a-b.34', '.list.a-b.34', 'does not refer to a valid field'],
  ['Missing leading dot', 'a', 'expected [ or . but got: a'],
  ['Nonexistent field', '.c', 'does not refer to a valid field'],
  ['Duplicate dots', '.a..b', 'does not refer to a valid field'],
  ['Negative array index', '.list[-1]', 'expected single quoted string but got -1'],
  ['Floating-point array index', '.list[1.0]', 'expected single quoted string but got 1'],
];

describe('resolveFieldPath', () => {
  for (const [name, path, error] of cases) {
    it(`does what TestValidateFieldPath expects for "${name}"`, () => {
      const r = resolveFieldPath(path, schema);
      if (error === '') expect(r.ok, JSON.stringify(r)).to.equal(true);
      else expect(r).to.deep.equal({ ok: false, error });
    });
  }

  it('returns the canonical path and the schema found', () => {
    expect(resolveFieldPath(".a['bbb.c'].a-b34", schema)).to.deep.equal({ ok: true, path: 'a.bbb.c.a-b34', schema: { type: 'number' } });
    expect(resolveFieldPath('.foo.k.f1', schema)).to.deep.equal({ ok: true, path: 'foo[k].f1', schema: { type: 'number' } });
  });

  it('refuses array notation when asked, and bad escapes', () => {
    expect(resolveFieldPath(".a['bbb']", schema, { allowArrayNotation: false })).to.deep.equal({ ok: false, error: 'array notation is not allowed' });
    expect(resolveFieldPath(".a['b\\qb']", schema)).to.deep.equal({ ok: false, error: 'invalid string literal: invalid escape char \\q' });
    expect(resolveFieldPath(".a['bbb'", schema)).to.deep.equal({ ok: false, error: 'unexpected end of JSON path' });
  });
});

describe('validateSimpleJSONPath', () => {
  it('accepts paths starting with a dot, as loosely as upstream', () => {
    for (const p of ['.', '.spec', '.spec.x', '.a..b']) expect(validateSimpleJSONPath(p, 'p')).to.deep.equal([]);
  });

  it('refuses empty paths and paths without a leading dot', () => {
    expect(validateSimpleJSONPath('', 'p').map(String)).to.deep.equal(['p: Invalid value: "": must not be empty']);
    expect(validateSimpleJSONPath('spec', 'p').map(String)).to.deep.equal(['p: Invalid value: "spec": must be a simple json path starting with .']);
  });
});
