import { expect } from 'chai';
import { parseFieldSelector } from '@kubekit/selectors';
import { builtinResourceFields, convertFieldSelector, createCustomResourceFields, UnsupportedFieldLabelError } from '@kubekit/attrs';

describe('convertFieldSelector', () => {
  it('keeps a selector whose labels the custom resource accepts, terms and operators unchanged', () => {
    const options = { namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }] };
    const sel = convertFieldSelector(options, parseFieldSelector('spec.color!=blue,metadata.namespace==ns,metadata.name=a\\,b'));
    expect(sel.toString()).to.equal('metadata.name=a\\,b,metadata.namespace=ns,spec.color!=blue');
    expect(sel.requirements()).to.deep.equal([
      { field: 'metadata.name', operator: '=', value: 'a,b' },
      { field: 'metadata.namespace', operator: '=', value: 'ns' },
      { field: 'spec.color', operator: '!=', value: 'blue' },
    ]);
    expect(convertFieldSelector(createCustomResourceFields(options), parseFieldSelector('spec.color=x')).toString()).to.equal('spec.color=x');
  });

  it('throws the apiserver\'s error for the first unsupported label in sorted order', () => {
    const options = { namespaced: false, selectableFields: [{ jsonPath: '.spec.color' }] };
    expect(() => convertFieldSelector(options, parseFieldSelector('spec.zzz=1,spec.aaa=2,spec.color=x')))
      .to.throw(UnsupportedFieldLabelError, 'field label not supported: spec.aaa');
    expect(() => convertFieldSelector(options, parseFieldSelector('metadata.namespace=ns')))
      .to.throw(UnsupportedFieldLabelError, 'field label not supported: metadata.namespace');
  });

  it('renames legacy labels of built-in kinds', () => {
    expect(convertFieldSelector(builtinResourceFields('v1', 'Pod')!, parseFieldSelector('spec.host!=n1,status.phase=Running')).toString())
      .to.equal('spec.nodeName!=n1,status.phase=Running');
    expect(() => convertFieldSelector(builtinResourceFields('batch/v1', 'Job')!, parseFieldSelector('status.succeeded=1')))
      .to.throw(UnsupportedFieldLabelError, 'field label "status.succeeded" not supported for Job');
  });

  it('leaves the empty selector empty', () => {
    expect(convertFieldSelector({ namespaced: false }, parseFieldSelector('')).isEmpty()).to.equal(true);
  });
});
