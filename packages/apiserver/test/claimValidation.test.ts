// compareQuantity (a claim's storage request against the old one and the status's capacity): Quantity.Cmp's
// order, checked against exact BigInt arithmetic on random quantities, and linear in the digits for exponents
// no BigInt could hold.
import { expect } from 'chai';
import fc from 'fast-check';
import { quantityDecimal } from '@kubekit/core';
import { compareQuantity } from '../src/claimValidation.js';

/** The exact value of a quantity of the form `<int>e<exp>` as a fraction n / 10^k with a common k. */
function exact(text: string, k: number): bigint {
  const [mantissa, exp] = text.split('e');
  const e = Number(exp) + k;
  return BigInt(mantissa) * 10n ** BigInt(e);
}

describe('compareQuantity', () => {
  it('orders quantities as exact arithmetic does', () => {
    fc.assert(fc.property(fc.bigInt(-(10n ** 12n), 10n ** 12n), fc.integer({ min: -9, max: 9 }), fc.bigInt(-(10n ** 12n), 10n ** 12n), fc.integer({ min: -9, max: 9 }), (a, ea, b, eb) => {
      const ta = `${a}e${ea}`;
      const tb = `${b}e${eb}`;
      const x = exact(ta, 9);
      const y = exact(tb, 9);
      expect(compareQuantity(quantityDecimal(ta)!, quantityDecimal(tb)!), `${ta} vs ${tb}`).to.equal(x < y ? -1 : x > y ? 1 : 0);
    }), { numRuns: 2000 });
  });

  it('compares binary suffixes and huge exponents without building the numbers', () => {
    const q = (t: string) => quantityDecimal(t)!;
    expect(compareQuantity(q('1536Mi'), q('2Gi'))).to.equal(-1);
    expect(compareQuantity(q('1Gi'), q('1024Mi'))).to.equal(0);
    expect(compareQuantity(q('1e999999'), q('2e999998'))).to.equal(1);
    expect(compareQuantity(q('-1e999999'), q('0'))).to.equal(-1);
  });
});
