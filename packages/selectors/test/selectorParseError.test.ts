import { expect } from 'chai';
import { KubeError, invalid } from '@kubekit/core';
import { SelectorParseError, parseFieldSelector, parseLabelSelector } from '@kubekit/selectors';

describe('SelectorParseError', () => {
  it('is a KubeError with reason BadRequest and code 400, named SelectorParseError', () => {
    const err = new SelectorParseError('invalid selector: \'x\'; can\'t understand \'x\'');
    expect(err).to.be.instanceOf(KubeError);
    expect(err).to.be.instanceOf(Error);
    expect(err.name).to.equal('SelectorParseError');
    expect(err.reason).to.equal('BadRequest');
    expect(err.code).to.equal(400);
    expect(err.fieldErrors).to.deep.equal([]);
  });

  it('becomes the Status body the apiserver answers a bad selector with', () => {
    let caught: unknown;
    try {
      parseFieldSelector('x');
    } catch (err) {
      caught = err;
    }
    expect((caught as SelectorParseError).toStatus()).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: "invalid selector: 'x'; can't understand 'x'", reason: 'BadRequest', code: 400,
    });
  });

  it('keeps the field errors and the cause it was given', () => {
    const fe = invalid('values[0]', 'a', 'for \'Gt\', \'Lt\' operators, the value must be an integer');
    const cause = new Error('inner');
    const err = new SelectorParseError(fe.toString(), { fieldErrors: [fe], cause });
    expect(err.fieldErrors).to.deep.equal([fe]);
    expect(err.cause).to.equal(cause);
    let parsed: unknown;
    try {
      parseLabelSelector('x<a');
    } catch (e) {
      parsed = e;
    }
    expect((parsed as SelectorParseError).fieldErrors.map(String)).to.deep.equal([fe.toString()]);
  });
});
