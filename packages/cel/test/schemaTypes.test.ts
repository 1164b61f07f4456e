// CEL types of structural schemas: property-name escaping (vectors copied from k8s.io/apiserver
// pkg/cel/escaping_test.go TestEscaping), size bounds (apiextensions-apiserver
// pkg/apiserver/schema/cel/model/schemas_test.go TestEstimateMaxLengthJSON) and the type mapping of
// the docs page's "declarations type mapping" table.
import { expect } from 'chai';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import type { Schema as JSONSchemaProps } from '../src/index.js';
import { escapeProperty, unescapeProperty } from '../src/internal/escaping.js';
import { formatType } from '../src/internal/types.js';
import { schemaDeclType } from '../src/schemaTypes.js';

const escaping = JSON.parse(readFileSync(new URL('./fixtures/escaping.json', import.meta.url), 'utf8')) as {
  cases: { unescaped: string; escaped?: string; unescapable?: boolean }[];
};

describe('escapeProperty', () => {
  for (const c of escaping.cases) {
    it(`escapes ${JSON.stringify(c.unescaped)}${c.unescapable === true ? ' (unescapable)' : ''}`, () => {
      if (c.unescapable === true) {
        expect(escapeProperty(c.unescaped)).to.equal(undefined);
        return;
      }
      expect(escapeProperty(c.unescaped)).to.equal(c.escaped);
      expect(c.escaped).to.match(/^[a-zA-Z_][a-zA-Z0-9_]*$/);
      expect(unescapeProperty(c.escaped!)).to.equal(c.unescaped);
    });
  }

  it('round-trips every escapable name (property)', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]{0,20}$/), (name) => {
      const e = escapeProperty(name);
      if (e === undefined) return;
      expect(e).to.match(/^[a-zA-Z_][a-zA-Z0-9_]*$/);
      expect(unescapeProperty(e)).to.equal(name);
    }));
  });
});

function arrayOf(items: JSONSchemaProps, maxItems?: number): JSONSchemaProps {
  return { type: 'array', items, ...(maxItems !== undefined ? { maxItems } : {}) };
}

describe('schemaDeclType', () => {
  describe('size bounds (TestEstimateMaxLengthJSON)', () => {
    const cases: [string, JSONSchemaProps, number][] = [
      ['booleanArray', arrayOf({ type: 'boolean' }), 629145],
      ['durationArray', arrayOf({ type: 'string', format: 'duration' }), 786431],
      ['datetimeArray', arrayOf({ type: 'string', format: 'date-time' }), 142987],
      ['dateArray', arrayOf({ type: 'string', format: 'date' }), 241978],
      ['numberArray', arrayOf({ type: 'integer' }), 1572863],
      ['stringArray', arrayOf({ type: 'string' }), 1048575],
      ['stringMap', { type: 'object', additionalProperties: { type: 'string' } }, 393215],
      ['objectOptionalPropertyArray', arrayOf({ type: 'object', properties: { required: { type: 'string' }, optional: { type: 'string' } }, required: ['required'] }), 185042],
      ['arrayWithLength', arrayOf({ type: 'integer', format: 'int64' }, 10), 10],
      ['stringWithLength', { type: 'string', maxLength: 20 }, 80],
      ['mapWithLength', { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 15 }, 15],
      ['durationMaxSize', { type: 'string', format: 'duration' }, 32],
      ['dateSize', { type: 'string', format: 'date' }, 12],
      ['maxdatetimeSize', { type: 'string', format: 'date-time' }, 32],
      ['maxintOrStringSize', { 'x-kubernetes-int-or-string': true }, 3 * 1024 * 1024 - 2],
      ['byteStringSize', { type: 'string', format: 'byte' }, 3145726],
      ['byteStringSetMaxLength', { type: 'string', format: 'byte', maxLength: 20 }, 20],
      ['enum', { type: 'string', enum: ['a', 'bbb', 'cc'] }, 3],
    ];
    for (const [name, schema, max] of cases) {
      it(`bounds ${name} to ${max}`, () => {
        expect(schemaDeclType(schema, false)?.maxElements).to.equal(max);
      });
    }
  });

  describe('the docs page type mapping', () => {
    const cases: [string, JSONSchemaProps, string | undefined][] = [
      ['object with properties', { type: 'object', properties: { a: { type: 'integer' } } }, 'object'],
      ['object with additionalProperties', { type: 'object', additionalProperties: { type: 'integer' } }, 'map(string, int)'],
      ['int-or-string', { 'x-kubernetes-int-or-string': true }, 'dyn'],
      ['array', { type: 'array', items: { type: 'string' } }, 'list(string)'],
      ['boolean', { type: 'boolean' }, 'bool'],
      ['number', { type: 'number', format: 'float' }, 'double'],
      ['integer', { type: 'integer', format: 'int32' }, 'int'],
      ['string', { type: 'string' }, 'string'],
      ['byte', { type: 'string', format: 'byte' }, 'bytes'],
      ['date', { type: 'string', format: 'date' }, 'timestamp'],
      ['date-time', { type: 'string', format: 'date-time' }, 'timestamp'],
      ['duration', { type: 'string', format: 'duration' }, 'duration'],
      ['untyped preserve-unknown-fields', { 'x-kubernetes-preserve-unknown-fields': true }, undefined],
      ['array of unknown', { type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true } }, undefined],
      ['map of unknown', { type: 'object', additionalProperties: { 'x-kubernetes-preserve-unknown-fields': true } }, undefined],
    ];
    for (const [name, schema, t] of cases) {
      it(`declares ${name} as ${t ?? 'nothing'}`, () => {
        const d = schemaDeclType(schema, false);
        expect(d === undefined ? undefined : formatType(d.celType)).to.equal(t);
      });
    }

    it('adds apiVersion, kind, metadata.name and metadata.generateName at resource roots only', () => {
      const s: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object' } } };
      expect([...schemaDeclType(s, true)!.fields!.keys()].sort()).to.deep.equal(['apiVersion', 'kind', 'metadata', 'spec']);
      expect([...schemaDeclType(s, true)!.fields!.get('metadata')!.type.fields!.keys()].sort()).to.deep.equal(['generateName', 'name']);
      expect([...schemaDeclType(s, false)!.fields!.keys()]).to.deep.equal(['spec']);
    });

    it('caps metadata.name at 253 characters unless the schema says less', () => {
      const s: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } } };
      const meta = schemaDeclType(s, true)!.fields!.get('metadata')!.type;
      expect(meta.fields!.get('name')!.type.maxElements).to.equal(40);
      expect(meta.fields!.get('generateName')!.type.maxElements).to.equal(252 * 4);
    });
  });
});
