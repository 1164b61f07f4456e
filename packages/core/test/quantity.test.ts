// Quantity's exact arithmetic: Decimal (runs of digits) against BigInt arithmetic on small numbers, and
// on exponents no big number could hold. resource.Quantity's answers through CEL are in
// packages/cel/test/quantity.test.ts (Go's own answers); the canonical text in
// packages/apiserver/test/builtinGoJSON.test.ts (141 Go vectors).
import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal, Quantity, canonicalQuantity, quantityError, quantityFormatError, quantitySuffixError } from '@kubekit/core';

/** n × 10^e as a BigInt-scaled pair on a common exponent. */
const exact = (n: bigint, e: number, base: number): bigint => n * 10n ** BigInt(e - base);

describe('Decimal', () => {
  const arb = fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -20, max: 20 }));

  it('adds, subtracts and compares as BigInt does', () => {
    fc.assert(fc.property(arb, arb, ([a, ea], [b, eb]) => {
      const x = Decimal.of(a < 0n, String(a < 0n ? -a : a), ea);
      const y = Decimal.of(b < 0n, String(b < 0n ? -b : b), eb);
      const base = Math.min(ea, eb);
      const ax = exact(a, ea, base);
      const by = exact(b, eb, base);
      const sum = x.add(y).toDigits();
      const diff = x.sub(y).toDigits();
      const value = (d: { negative: boolean; digits: string; exponent: number }): bigint =>
        d.digits === '' ? 0n : (d.negative ? -1n : 1n) * exact(BigInt(d.digits), d.exponent, base);
      expect(value(sum)).to.equal(ax + by);
      expect(value(diff)).to.equal(ax - by);
      expect(x.compare(y)).to.equal(ax < by ? -1 : ax > by ? 1 : 0);
    }), { numRuns: 2000 });
  });

  it('keeps a run of two billion nines as one run', () => {
    const big = Decimal.of(false, '1', 2_000_000_000);
    const nines = big.sub(Decimal.of(false, '1', 0));
    expect(nines.compare(big)).to.equal(-1);
    expect(nines.add(Decimal.of(false, '1', 0)).compare(big)).to.equal(0);
    expect(nines.toNumber()).to.equal(Infinity);
    expect(Decimal.of(false, '1', -2_000_000_000).toNumber()).to.equal(0);
  });
});

describe('Quantity', () => {
  const q = (s: string): Quantity => {
    const r = Quantity.parse(s);
    if (typeof r === 'string') throw new Error(r);
    return r;
  };

  it('parses and compares a 10-byte quantity without building its power of ten', () => {
    expect(q('1e10000000').cmp(q('1e9999999'))).to.equal(1);
    expect(q('1e2000000000').add(q('1')).sub(q('1e2000000000')).asInt64()).to.equal(undefined); // an inf.Dec, as in Go
    expect(q('1e2000000000').add(q('1')).sub(q('1e2000000000')).cmp(q('1'))).to.equal(0);
  });

  it('holds values as Go does: 1000m is an int64Amount at scale −3, 1Ei an inf.Dec', () => {
    expect(q('1000m').value).to.deep.equal({ kind: 'int64', value: 1000n, scale: -3 });
    expect(q('1000m').asInt64()).to.equal(undefined);
    expect(q('1k').asInt64()).to.equal(1000n);
    expect(q('1Ei').value.kind).to.equal('dec');
    expect(q('1e-2000').cmp(q('1n'))).to.equal(0);
  });
});

// resource.Quantity's UnmarshalJSON trims with Go's strings.TrimSpace, which keeps U+FEFF (kube-apiserver 1.34.4
// refuses `cpu: "\uFEFF1"`); strconv.ParseInt reads an exponent with leading zeros.
describe('quantity text', () => {
  it('trims Go\'s white space only', () => {
    expect(canonicalQuantity(' 1 ')).to.equal('1');
    expect(canonicalQuantity('\uFEFF1')).to.equal(undefined);
    expect(quantityError('\uFEFF1')).to.equal(quantityFormatError);
  });

  it('refuses an exponent of more than 19 significant digits without reading it', () => {
    expect(canonicalQuantity(`1e${'0'.repeat(30)}1`)).to.equal('10');
    expect(quantityError(`1e${'1'.repeat(20)}`)).to.equal(quantitySuffixError);
    expect(quantityError(`1e${'1'.repeat(4_000_000)}`)).to.equal(quantitySuffixError);
  });
});
