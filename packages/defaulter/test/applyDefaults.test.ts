import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { copy, fixture, implementations, type Schema } from './support.js';

interface DefaultingCase {
  id: string;
  group: string;
  name: string;
  upstream: string;
  schema?: Schema;
  input?: unknown;
  expected?: unknown;
}

// Transcribed from apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm_test.go TestDefault.
const cases = fixture<{ cases: DefaultingCase[] }>('defaulting.json').cases.filter((c) => c.group === 'default');

/** KEP-575 "Examples" 1 and 2: `foo` with default "abc". */
const kepFooSchema: JSONSchemaProps = { type: 'object', properties: { foo: { type: 'string', default: 'abc' } } };
/** KEP-575 example 3: an array default. */
const kepArraySchema: JSONSchemaProps = { type: 'object', properties: { foo: { type: 'array', items: { type: 'integer' }, default: [1] } } };
/** KEP-575 example 4: top-down defaulting. */
const kepTopDownSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    foo: {
      type: 'object',
      properties: { a: { type: 'string', default: 'abc' }, b: { type: 'string' } },
      default: { b: 'def' },
    },
  },
};

for (const impl of implementations) {
  describe(`applyDefaults (${impl.name})`, () => {
    describe('upstream TestDefault', () => {
      for (const c of cases) {
        it(`does ${c.id} ${c.name}`, () => {
          const obj = copy(c.input);
          impl.bind(c.schema).applyDefaults(obj);
          expect(obj).to.deep.equal(c.expected ?? null);
        });
      }
    });

    describe('KEP-575 examples', () => {
      it('does 1: default in the undefined case', () => {
        const obj = {};
        impl.bind(kepFooSchema).applyDefaults(obj);
        expect(obj).to.deep.equal({ foo: 'abc' });
      });

      it('does 2: no defaulting of a defined value', () => {
        const obj = { foo: 'def' };
        impl.bind(kepFooSchema).applyDefaults(obj);
        expect(obj).to.deep.equal({ foo: 'def' });
      });

      it('does 3: array default in the undefined case, empty lists stay empty', () => {
        const absent = {};
        impl.bind(kepArraySchema).applyDefaults(absent);
        expect(absent).to.deep.equal({ foo: [1] });
        const empty = { foo: [] };
        impl.bind(kepArraySchema).applyDefaults(empty);
        expect(empty).to.deep.equal({ foo: [] });
      });

      it('does 3 for null as the apiserver does since nullable semantics: a non-nullable null is defaulted', () => {
        // KEP-575 (2019) kept {"foo": null}; the implemented algorithm and the docs page default a
        // null whose schema is not nullable (algorithm_test.go "null in non-nullable object").
        const obj = { foo: null };
        impl.bind(kepArraySchema).applyDefaults(obj);
        expect(obj).to.deep.equal({ foo: [1] });
        const nullable: JSONSchemaProps = { type: 'object', properties: { foo: { ...kepArraySchema.properties?.foo, nullable: true } } };
        const kept = { foo: null };
        impl.bind(nullable).applyDefaults(kept);
        expect(kept).to.deep.equal({ foo: null });
      });

      it('does 4: top-down defaulting (a defaulted object is itself defaulted inside)', () => {
        const obj = {};
        impl.bind(kepTopDownSchema).applyDefaults(obj);
        expect(obj).to.deep.equal({ foo: { a: 'abc', b: 'def' } });
      });
    });

    it('defaults the docs page\'s CronTab cronSpec and replicas', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', default: '5 0 * * *' },
              image: { type: 'string' },
              replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
            },
          },
        },
      };
      const obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object' }, spec: { image: 'my-awesome-cron-image' } };
      impl.bind(schema).applyDefaults(obj);
      expect(obj.spec).to.deep.equal({ cronSpec: '5 0 * * *', image: 'my-awesome-cron-image', replicas: 1 });
    });

    it('never defaults zero values, empty strings, empty lists or empty maps', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          n: { type: 'integer', default: 5 }, s: { type: 'string', default: 'x' }, b: { type: 'boolean', default: true },
          l: { type: 'array', items: { type: 'string' }, default: ['x'] }, m: { type: 'object', additionalProperties: { type: 'string' }, default: { x: 'y' } },
        },
      };
      const obj = { n: 0, s: '', b: false, l: [], m: {} };
      impl.bind(schema).applyDefaults(obj);
      expect(obj).to.deep.equal({ n: 0, s: '', b: false, l: [], m: {} });
    });

    it('treats a JavaScript undefined like an absent field', () => {
      const obj: Record<string, unknown> = { foo: undefined };
      impl.bind(kepFooSchema).applyDefaults(obj);
      expect(obj).to.deep.equal({ foo: 'abc' });
    });

    it('defaults an x-kubernetes-int-or-string field with an integer or a string', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], default: 8080 },
          target: { 'x-kubernetes-int-or-string': true, default: 'http' },
        },
      };
      const obj: Record<string, unknown> = {};
      impl.bind(schema).applyDefaults(obj);
      expect(obj).to.deep.equal({ port: 8080, target: 'http' });
      const set = { port: 'https', target: 443 };
      impl.bind(schema).applyDefaults(set);
      expect(set).to.deep.equal({ port: 'https', target: 443 });
    });

    it('applies defaults inside items and additionalProperties, without creating map keys', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          list: { type: 'array', items: { type: 'object', properties: { p: { type: 'integer', default: 80 } } } },
          map: { type: 'object', additionalProperties: { type: 'object', properties: { w: { type: 'integer', default: 1 } } } },
          nulls: { type: 'array', items: { type: 'object', default: { d: true }, properties: { e: { type: 'string', default: 'e' } } } },
        },
      };
      const obj = { list: [{}, { p: 443 }], map: { a: {}, b: { w: 2 } }, nulls: [null, {}] };
      impl.bind(schema).applyDefaults(obj);
      expect(obj).to.deep.equal({
        list: [{ p: 80 }, { p: 443 }], map: { a: { w: 1 }, b: { w: 2 } }, nulls: [{ d: true, e: 'e' }, { e: 'e' }],
      });
    });

    it('deep-copies defaults: objects never share them with each other or with the schema', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: { foo: { type: 'object', default: { list: [1, { a: 'b' }] }, properties: { list: { type: 'array' } } } },
      };
      const ops = impl.bind(schema);
      interface Defaulted { foo: { list: [number, { a: string }, ...number[]] } }
      const one = {} as Defaulted;
      const two = {} as Defaulted;
      ops.applyDefaults(one);
      ops.applyDefaults(two);
      expect(one.foo).to.not.equal(two.foo);
      expect(one.foo.list).to.not.equal(two.foo.list);
      one.foo.list[1].a = 'changed';
      one.foo.list.push(2);
      expect(two).to.deep.equal({ foo: { list: [1, { a: 'b' }] } });
      expect(schema.properties?.foo.default).to.deep.equal({ list: [1, { a: 'b' }] });
      const three: Record<string, unknown> = {};
      ops.applyDefaults(three);
      expect(three).to.deep.equal({ foo: { list: [1, { a: 'b' }] } });
    });

    it('keeps big integers (bigint) of defaults and objects exact', () => {
      const schema: JSONSchemaProps = { type: 'object', properties: { n: { type: 'integer', default: 12345678901234567890n }, m: { type: 'integer', default: 1 } } };
      const obj = { m: 9007199254740993n };
      impl.bind(schema).applyDefaults(obj);
      expect(obj).to.deep.equal({ m: 9007199254740993n, n: 12345678901234567890n });
    });

    it('fails with BadRequest naming the maximum depth when defaulting 10,000 levels', () => {
      let schema: JSONSchemaProps = { type: 'object', properties: { leaf: { type: 'string', default: 'x' } } };
      let obj: Record<string, unknown> = {};
      for (let i = 0; i < 10_000; i++) {
        schema = { type: 'object', properties: { a: schema } };
        obj = { a: obj };
      }
      const run = (): void => impl.bind(schema).applyDefaults(obj);
      expect(run).to.throw(KubeError, /nesting exceeds the maximum depth of 1000/).with.property('reason', 'BadRequest');
    });
  });
}
