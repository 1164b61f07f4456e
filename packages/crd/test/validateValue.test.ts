import { expect } from 'chai';
import type { JSONSchemaProps } from '../src/types.js';
import { validateValue } from '../src/validateValue.js';

const texts = (schema: JSONSchemaProps, value: unknown, path = ''): string[] => validateValue(schema, value, path).map(String);

describe('validateValue', () => {
  it('reports a value above maximum as the apiserver does', () => {
    expect(texts({ type: 'integer', minimum: 1, maximum: 10 }, 15, 'spec.replicas'))
      .to.deep.equal(['spec.replicas: Invalid value: 15:  in body should be less than or equal to 10']);
  });

  it('accepts a value within minimum and maximum', () => {
    expect(texts({ type: 'integer', minimum: 1, maximum: 10 }, 5, 'spec.replicas')).to.deep.equal([]);
  });

  it('reports type mismatches with the type name as the bad value', () => {
    expect(texts({ type: 'object', properties: { x: { type: 'integer' } } }, { x: 'a' }))
      .to.deep.equal(['x: Invalid value: "string": x in body must be of type integer: "string"']);
  });

  it('reports enum and required failures', () => {
    const schema: JSONSchemaProps = { type: 'object', required: ['a'], properties: { e: { type: 'string', enum: ['x', 'y'] } } };
    expect(texts(schema, { e: 'z' })).to.deep.equal(['e: Unsupported value: "z": supported values: "x", "y"', 'a: Required value']);
  });
});
