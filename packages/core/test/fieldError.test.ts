import { expect } from 'chai';
import {
  FieldError, FieldPath, aggregateMessage, duplicate, forbidden, invalid, notSupported, required, tooLong, tooLongCharacters, tooMany, tooShort,
} from '@kubekit/core';

// Texts as k8s.io/apimachinery/pkg/util/validation/field/errors.go prints them (errors_test.go TestMakeFuncs,
// TestErrorUsefulMessage) and as they appear in the apiextensions validation tests.
describe('FieldError', () => {
  it('prints Invalid value with a Go-quoted string', () => {
    expect(invalid('spec.x', 'y', 'detail').toString()).to.equal('spec.x: Invalid value: "y": detail');
  });
  it('prints Required value without the bad value', () => {
    expect(required('spec.versions[0].selectableFields[0].jsonPath').toString())
      .to.equal('spec.versions[0].selectableFields[0].jsonPath: Required value');
    expect(required(FieldPath.root('a'), 'must be set').toString()).to.equal('a: Required value: must be set');
  });
  it('prints Unsupported value with the supported values quoted', () => {
    expect(notSupported('spec.scope', 'Foo', ['Cluster', 'Namespaced']).toString())
      .to.equal('spec.scope: Unsupported value: "Foo": supported values: "Cluster", "Namespaced"');
  });
  it('prints Duplicate value and Too many', () => {
    expect(duplicate('spec.versions[1].selectableFields[1].jsonPath', '.spec.color').toString())
      .to.equal('spec.versions[1].selectableFields[1].jsonPath: Duplicate value: ".spec.color"');
    expect(tooMany('spec.versions[0].selectableFields', 9, 8).toString())
      .to.equal('spec.versions[0].selectableFields: Too many: 9: must have at most 8 items');
    expect(tooMany('x', 2, 1).toString()).to.equal('x: Too many: 2: must have at most 1 item');
    expect(tooShort('x', 'ab', 3).toString()).to.equal('x: Too short: must be at least 3 characters');
    expect(tooLongCharacters('x', 1).toString()).to.equal('x: Too long: may not be more than 1 character');
  });
  it('prints Forbidden and Too long without the bad value', () => {
    expect(forbidden('openAPIV3Schema.additionalProperties', 'must not be used at the root').toString())
      .to.equal('openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root');
    expect(tooLong('metadata.name', 'x'.repeat(300), 253).toString()).to.equal('metadata.name: Too long: may not be more than 253 bytes');
  });
  it('formats bad values as Go does: numbers with %v, null, composites with %#v, control characters escaped', () => {
    expect(invalid('a', 5, 'd').toString()).to.equal('a: Invalid value: 5: d');
    expect(invalid('a', 1.5, 'd').toString()).to.equal('a: Invalid value: 1.5: d');
    expect(invalid('a', 1234567.5, 'd').toString()).to.equal('a: Invalid value: 1.2345675e+06: d');
    expect(invalid('a', 12345678901234567890n, 'd').toString()).to.equal('a: Invalid value: 12345678901234567890: d');
    expect(invalid('a', true, 'd').toString()).to.equal('a: Invalid value: true: d');
    expect(invalid('a', null, 'd').toString()).to.equal('a: Invalid value: null: d');
    // Composite values print as Go's json.Marshal (sorted keys, HTML characters escaped): field/errors.go ErrorBody.
    expect(invalid('a', ['x', 1], 'd').toString()).to.equal('a: Invalid value: ["x",1]: d');
    expect(invalid('a', { z: 1, b: 'x<y' }, 'd').toString()).to.equal('a: Invalid value: {"b":"x\\u003cy","z":1}: d');
    expect(duplicate('spec.ports[1]', { port: 80 }).toString()).to.equal('spec.ports[1]: Duplicate value: {"port":80}');
    expect(invalid('a', 'tab\there "q" \u0001', 'd').toString()).to.equal('a: Invalid value: "tab\\there \\"q\\" \\x01": d');
  });
  it('gives the body alone for Status causes, and a prefixed copy', () => {
    const e = invalid('jsonPath', '.x', 'is not valid');
    expect(e.body()).to.equal('Invalid value: ".x": is not valid');
    expect(e.withPrefix('spec.versions[0]').field).to.equal('spec.versions[0].jsonPath');
    expect(e).to.be.instanceOf(FieldError);
  });
});

describe('FieldPath', () => {
  it('prints children with dots and indexes and keys in brackets', () => {
    expect(FieldPath.root('spec').child('versions').index(2).child('schema', 'openAPIV3Schema').key('foo').toString())
      .to.equal('spec.versions[2].schema.openAPIV3Schema[foo]');
    expect(FieldPath.root('openAPIV3Schema').child('properties').key('spec').toString()).to.equal('openAPIV3Schema.properties[spec]');
  });

  it('prints the empty path as Go prints field.NewPath(""): [], and its children after it', () => {
    expect(FieldPath.empty().toString()).to.equal('[]');
    expect(FieldPath.empty().child('x').index(1).toString()).to.equal('[].x[1]');
    expect(String(forbidden(FieldPath.empty(), 'no'))).to.equal('[]: Forbidden: no');
  });
});

describe('aggregateMessage', () => {
  it('joins several messages in brackets and de-duplicates them, as utilerrors.NewAggregate', () => {
    const a = invalid('a', 1, 'x');
    const b = required('b');
    expect(aggregateMessage([])).to.equal('');
    expect(aggregateMessage([a])).to.equal('a: Invalid value: 1: x');
    expect(aggregateMessage([a, b, a])).to.equal('[a: Invalid value: 1: x, b: Required value]');
    expect(aggregateMessage([a, a])).to.equal('a: Invalid value: 1: x');
  });
});
