import { expect } from 'chai';
import { validateCustomResourceColumnDefinition } from '@kubekit/crd';
import type { CustomResourceColumnDefinition } from '@kubekit/crd';

const path = 'spec.versions[0].additionalPrinterColumns[0]';
const check = (c: Partial<CustomResourceColumnDefinition>) => validateCustomResourceColumnDefinition(c as CustomResourceColumnDefinition, path).map(String);

describe('validateCustomResourceColumnDefinition', () => {
  it('accepts the docs page columns and every type and format', () => {
    expect(check({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' })).to.deep.equal([]);
    for (const type of ['integer', 'number', 'string', 'boolean', 'date'] as const) expect(check({ name: 'X', type, jsonPath: '.spec.x' })).to.deep.equal([]);
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password']) {
      expect(check({ name: 'X', type: 'string', format, jsonPath: '.spec.x', priority: 1, description: 'd' })).to.deep.equal([]);
    }
  });

  it('requires name, type and jsonPath (named JSONPath in the path, as upstream does)', () => {
    expect(check({})).to.deep.equal([
      `${path}.name: Required value`,
      `${path}.type: Required value: must be one of boolean,date,integer,number,string`,
      `${path}.JSONPath: Required value`,
    ]);
  });

  it('refuses other types and formats', () => {
    expect(check({ name: 'X', type: 'float' as 'number', format: 'uuid', jsonPath: '.spec.x' })).to.deep.equal([
      `${path}.type: Invalid value: "float": must be one of boolean,date,integer,number,string`,
      `${path}.format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password`,
    ]);
  });

  it('requires a simple JSON path starting with a dot', () => {
    expect(check({ name: 'X', type: 'string', jsonPath: 'spec.x' })).to.deep.equal([
      `${path}.JSONPath: Invalid value: "spec.x": must be a simple json path starting with .`,
    ]);
  });

  it('requires an int32 priority and reports wrong types without throwing', () => {
    expect(check({ name: 'X', type: 'string', jsonPath: '.spec.x', priority: 1.5 })).to.deep.equal([
      `${path}.priority: Invalid value: 1.5: json: cannot unmarshal number into Go value of type int32`,
    ]);
    expect(validateCustomResourceColumnDefinition(null as unknown as CustomResourceColumnDefinition, path)).to.have.length(3);
    expect(validateCustomResourceColumnDefinition('x' as unknown as CustomResourceColumnDefinition, path)).to.have.length(1);
  });
});
