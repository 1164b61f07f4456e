// The quantity arithmetic of the LimitRanger and ResourceQuota admission plugins (internal/resourceList.ts)
// against k8s.io/apimachinery v0.34.4: for each pair of quantities read back as from storage, the text of
// their sum and difference (Add's and Sub's rule for the format, String's canonical form) and Value and
// MilliValue (which Go computes from the way the quantity holds its value: overflows wrap or give 0).
// The vectors are written by `go run . -arithmetic` in scripts/gen-go-json from pairs of the first two columns.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { addAmounts, amountMilliValue, amountText, amountValue, parseAmount, subAmounts } from '../src/internal/resourceList.js';

const vectors = JSON.parse(readFileSync(new URL('./fixtures/quantity-arithmetic.json', import.meta.url), 'utf8')) as string[][];

describe('resourceList (resource.Quantity arithmetic)', () => {
  it(`adds, subtracts and reads the value of ${vectors.length} pairs as Go does`, () => {
    const wrong: string[] = [];
    for (const [a, b, sum, diff, aValue, aMilli, sumValue, sumMilli] of vectors) {
      const x = parseAmount(a)!;
      const y = parseAmount(b)!;
      const s = addAmounts(x, y);
      const got = [amountText(x), amountText(y), amountText(s), amountText(subAmounts(x, y)), String(amountValue(x)), String(amountMilliValue(x)), String(amountValue(s)), String(amountMilliValue(s))];
      const want = [a, b, sum, diff, aValue, aMilli, sumValue, sumMilli];
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${a} ${b}: ${JSON.stringify(want)} expected, ${JSON.stringify(got)} computed`);
    }
    expect(wrong).to.deep.equal([]);
  });
});
