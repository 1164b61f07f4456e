import { expect } from 'chai';
import { asError, errorMessage, isInstanceOf } from '@kubekit/core';

// What user code may throw (reconcilers, handlers, webhook functions), and what reporting it must give.
const proxy = new Proxy({}, { get: () => { throw new Error('trap'); }, getPrototypeOf: () => { throw new Error('trap'); } });
const messageGetter = Object.create(Error.prototype, { message: { get: () => { throw new Error('no message'); } } }) as unknown;

describe('errorMessage, asError, isInstanceOf', () => {
  it('describe any thrown value without throwing', () => {
    expect(errorMessage(new TypeError('bad'))).to.equal('bad');
    expect(errorMessage('text')).to.equal('text');
    expect(errorMessage(undefined)).to.equal('undefined');
    expect(errorMessage(null)).to.equal('null');
    expect(errorMessage(Object.create(null))).to.equal('[object Object]');
    expect(errorMessage({ toString: () => { throw new Error('no text'); } })).to.equal('[object Object]');
    expect(errorMessage(messageGetter)).to.be.a('string');
    expect(errorMessage(proxy)).to.be.a('string');
    expect(errorMessage(Symbol('s'))).to.equal('Symbol(s)');
  });

  it('keep a usable Error, and wrap anything else with the value as its cause', () => {
    const err = new RangeError('r');
    expect(asError(err)).to.equal(err);
    for (const value of [null, 5, Object.create(null), messageGetter, proxy]) {
      const wrapped = asError(value);
      expect(wrapped).to.be.instanceOf(Error);
      expect(wrapped.message).to.equal(errorMessage(value));
      expect(wrapped.cause).to.equal(value);
    }
  });

  it('answer instanceof as false for a value whose prototype cannot be read', () => {
    expect(isInstanceOf(new RangeError('r'), RangeError)).to.equal(true);
    expect(isInstanceOf({}, RangeError)).to.equal(false);
    expect(isInstanceOf(proxy, RangeError)).to.equal(false);
  });
});
