// Kubernetes' CEL quantity library against Go: fixtures/quantity-go.json holds what k8s.io/apiserver
// v0.34.4's environment (cel-go v0.26, resource.Quantity of k8s.io/apimachinery v0.34.4) answers for each
// expression, written by scripts/gen-go-quantity from its expressions.json: the cases of
// pkg/cel/library/quantity_test.go, and kubekit's for exponents far beyond ±1000, int64Amount against
// inf.Dec (which decides isInteger), rounding up to 10⁻⁹ and the BinarySI cap. Where Go gave no answer
// within 5 s (it builds 10^n as a big number), kubekit must answer at once, with exact arithmetic.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Quantity } from '@kubekit/core';
import { CelError, compile } from '../src/index.js';
import { QuantityVal } from '../src/libraries/quantity.js';

interface GoAnswer { source: string; expr: string; value?: unknown; type?: string; error?: string; timeout?: boolean }

const answers = JSON.parse(readFileSync(new URL('./fixtures/quantity-go.json', import.meta.url), 'utf8')) as GoAnswer[];

/** kubekit's answer in the fixture's shape: Go's words for a value, or the error text. */
function kubekit(expr: string): Omit<GoAnswer, 'source' | 'expr'> {
  let program;
  try {
    program = compile(expr);
  } catch (e) {
    return { error: `compile: ${(e as Error).message}` };
  }
  try {
    const { value } = program.evaluate({});
    if (value instanceof QuantityVal) return { value, type: 'kubernetes.Quantity' };
    if (typeof value === 'bigint') return { value: String(value), type: 'int' };
    if (typeof value === 'number') return { value: Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : value, type: 'double' };
    return { value, type: typeof value === 'boolean' ? 'bool' : typeof value };
  } catch (e) {
    if (!(e instanceof CelError)) throw e;
    return { error: e.message };
  }
}

/**
 * Quantities whose String() does not read back as their value: Go writes the int64Amount 1000 × 10^2147483647
 * with its exponent wrapped in 32 bits (kubekit's canonicalQuantity writes the same text).
 */
const textWraps = new Set(['quantity("1000e2147483647")']);

/** Whether kubekit's answer is Go's; a quantity is compared by value with Go's text of it. */
function same(go: GoAnswer, got: Omit<GoAnswer, 'source' | 'expr'>): boolean {
  if (go.error !== undefined) return got.error === go.error;
  if (textWraps.has(go.expr)) return got.value instanceof QuantityVal;
  if (go.type === 'kubernetes.Quantity') {
    const want = Quantity.parse(go.value as string);
    return got.value instanceof QuantityVal && typeof want !== 'string' && got.value.quantity.cmp(want) === 0;
  }
  return got.type === go.type && got.value === go.value;
}

describe('the quantity library', () => {
  const sources = [...new Set(answers.map((a) => a.source))];
  for (const source of sources) {
    const mine = answers.filter((a) => a.source === source && a.timeout !== true);
    it(`answers as kube-apiserver's for the ${mine.length} expressions of ${source}`, () => {
      const wrong = mine.flatMap((a) => {
        const got = kubekit(a.expr);
        return same(a, got) ? [] : [{ expr: a.expr, go: a.error ?? a.value, got: got.error ?? (got.value instanceof QuantityVal ? 'a quantity of another value' : got.value) }];
      });
      expect(wrong).to.deep.equal([]);
    });
  }

  it('holds Go\'s answers (the fixture is not empty or truncated)', () => {
    expect(answers.filter((a) => a.source.startsWith('k8s:')).length).to.equal(32);
    expect(answers.filter((a) => a.timeout !== true).length).to.be.greaterThan(500);
  });

  it('answers at once where Go does not answer (it builds 10^n as a big number)', () => {
    const slow = answers.filter((a) => a.timeout === true);
    expect(slow.length).to.be.greaterThan(10);
    for (const a of slow) {
      const got = kubekit(a.expr);
      expect(got.error ?? '', a.expr).not.to.match(/^compile/);
    }
  });

  // Exact answers for expressions Go does not finish: what its arithmetic defines.
  const exact: [string, unknown][] = [
    ['quantity("1e2000000000").add(1).isGreaterThan(quantity("1e2000000000"))', true],
    ['quantity("1e2000000000").sub(quantity("1e-9")).isLessThan(quantity("1e2000000000"))', true],
    ['quantity("1e2000000000").sub(quantity("1e-9")).add(quantity("1e-9")).compareTo(quantity("1e2000000000"))', 0n],
    // An int64Amount 0 at scale 2e9 (Go loops 2e9 times in AsInt64); its float is 0 × Pow10(2e9) = 0 × +Inf.
    ['quantity("1e2000000000").sub(quantity("1e2000000000")).isInteger()', true],
    ['string(quantity("-1e2000000000").add(quantity("1e2000000000")).asApproximateFloat())', 'NaN'],
    ['quantity("1e10000000").add(1).compareTo(quantity("1e10000000"))', 1n],
    ['quantity("1234567890123456789e10000000").sub(quantity("1234567890123456788e10000000")).compareTo(quantity("1e10000000"))', 0n],
    ['quantity("1234567890123456789e10000000").asApproximateFloat()', Infinity],
    ['quantity("1e99999999999").isGreaterThan(quantity("1"))', true],
    // Exponents are kept in 32 bits, as Go's parser keeps them: both of these wrap to scale −2³¹, 10^2147483648.
    ['quantity("1e2147483648").compareTo(quantity("1e2147483647"))', 1n],
    ['quantity("1e-2147483648").compareTo(quantity("1e2147483647"))', 1n],
  ];
  for (const [expr, value] of exact) {
    it(`evaluates ${expr}`, () => {
      expect(compile(expr).evaluate({}).value).to.equal(value);
    });
  }
});
