import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { pruneDefaults } from '@kubekit/defaulter';
import { hostileSchemaText } from './support.js';

describe('pruneDefaults', () => {
  it('prunes unknown fields of defaults and unknown ObjectMeta fields of defaults spanning embedded metadata', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: { type: 'object', default: { a: 1, b: 2 }, properties: { a: { type: 'integer' } } },
        embedded: {
          type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true,
          default: { apiVersion: 'v1', kind: 'Foo', metadata: { name: 'n', unknown: 'u', labels: { a: 'b' } }, other: 1 },
        },
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } }, default: { x: 'a', y: 'b' } } },
      },
    };
    const pruned = pruneDefaults(schema);
    expect(pruned?.properties?.spec.default).to.deep.equal({ a: 1 });
    expect(pruned?.properties?.embedded.default).to.deep.equal({ apiVersion: 'v1', kind: 'Foo', metadata: { name: 'n', labels: { a: 'b' } }, other: 1 });
    expect((pruned?.properties?.list.items as JSONSchemaProps).default).to.deep.equal({ x: 'a' });
    expect(schema.properties?.spec.default).to.deep.equal({ a: 1, b: 2 });
  });

  it('removes a default that pruning removes entirely', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        e: {
          type: 'object', 'x-kubernetes-embedded-resource': true,
          properties: { metadata: { type: 'object', properties: { unknown: { type: 'string', default: 'u' }, name: { type: 'string', default: 'n' } } } },
        },
      },
    };
    const meta = pruneDefaults(schema)?.properties?.e.properties?.metadata;
    expect(meta?.properties?.unknown).to.not.have.property('default');
    expect(meta?.properties?.name.default).to.equal('n');
  });

  it('rejects a root default that is not an object, as upstream', () => {
    expect(() => pruneDefaults({ type: 'object', default: 'x' as never })).to.throw(KubeError, 'object root default value must be of object type');
  });

  it('does hostile defaults without touching prototypes or the given schema', () => {
    const schema = JSON.parse(hostileSchemaText) as JSONSchemaProps;
    const pruned = pruneDefaults(schema);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.getOwnPropertyDescriptor(pruned?.properties, '__proto__')?.value).to.have.property('default');
    expect(JSON.stringify(schema)).to.equal(JSON.stringify(JSON.parse(hostileSchemaText)));
  });
});
