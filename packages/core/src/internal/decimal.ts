/**
 * Exact decimal numbers whose exponents may be as large as a 32-bit scale allows (or larger after
 * arithmetic), held as runs of equal digits: `1e2000000000` is one run, `1e2000000000 − 1` is a run of
 * two billion nines, and neither is ever written out. Comparison, addition and subtraction take time
 * linear in the number of runs, never in the number of digits, so a 12-byte quantity cannot cost
 * seconds or gigabytes (Go's `inf.Dec`, which kube-apiserver uses, builds such powers of ten).
 */

/** `count` copies of the digit `digit`. */
interface Run {
  readonly digit: number;
  readonly count: number;
}

/** An exact decimal: ±(the digits of `runs`, most significant first) × 10^`exponent`. */
export class Decimal {
  /** Zero. */
  static readonly zero = new Decimal(false, [], 0);

  private constructor(
    /** Whether the number is below zero (never for zero). */
    readonly negative: boolean,
    /** No leading or trailing zero digits; empty for zero. */
    private readonly runs: readonly Run[],
    /** The power of ten of the last digit. */
    readonly exponent: number,
  ) {}

  /** ±`digits` × 10^`exponent`; `digits` holds only 0–9. */
  static of(negative: boolean, digits: string, exponent: number): Decimal {
    const runs: Run[] = [];
    for (let i = 0; i < digits.length;) {
      let j = i + 1;
      while (j < digits.length && digits.charCodeAt(j) === digits.charCodeAt(i)) j++;
      runs.push({ digit: digits.charCodeAt(i) - 48, count: j - i });
      i = j;
    }
    return Decimal.normalized(negative, runs, exponent);
  }

  /** The integer `n`. */
  static fromBigInt(n: bigint): Decimal {
    return Decimal.of(n < 0n, String(n < 0n ? -n : n), 0);
  }

  /** Merges equal neighbours and moves leading and trailing zeros out. */
  private static normalized(negative: boolean, input: readonly Run[], exponent: number): Decimal {
    const runs: Run[] = [];
    for (const r of input) {
      if (r.count === 0) continue;
      const last = runs[runs.length - 1];
      if (last !== undefined && last.digit === r.digit) runs[runs.length - 1] = { digit: r.digit, count: last.count + r.count };
      else runs.push(r);
    }
    if (runs.length > 0 && runs[0].digit === 0) runs.shift();
    let e = exponent;
    if (runs.length > 0 && runs[runs.length - 1].digit === 0) e += runs.pop()!.count;
    return runs.length === 0 ? Decimal.zero : new Decimal(negative, runs, e);
  }

  /** -1, 0 or 1. */
  sign(): number {
    return this.runs.length === 0 ? 0 : this.negative ? -1 : 1;
  }

  /** The number of digits from the first to the last non-zero one. */
  private digitCount(): number {
    let n = 0;
    for (const r of this.runs) n += r.count;
    return n;
  }

  /** -1, 0 or 1 as `this` is below, equal to or above `other`. */
  compare(other: Decimal): number {
    if (this.sign() !== other.sign()) return this.sign() < other.sign() ? -1 : 1;
    const abs = compareAbs(this, other);
    return this.negative ? -abs : abs;
  }

  /** `-this`. */
  negate(): Decimal {
    return this.runs.length === 0 ? this : new Decimal(!this.negative, this.runs, this.exponent);
  }

  /** `this + other`, exactly. */
  add(other: Decimal): Decimal {
    if (other.sign() === 0) return this;
    if (this.sign() === 0) return other;
    if (this.negative === other.negative) return Decimal.normalized(this.negative, addAbs(this, other), Math.min(this.exponent, other.exponent));
    const c = compareAbs(this, other);
    if (c === 0) return Decimal.zero;
    const [big, small] = c > 0 ? [this, other] : [other, this];
    return Decimal.normalized(big.negative, subAbs(big, small), Math.min(this.exponent, other.exponent));
  }

  /** `this − other`, exactly. */
  sub(other: Decimal): Decimal {
    return this.add(other.negate());
  }

  /** Whether the number has no fraction. */
  isInteger(): boolean {
    return this.exponent >= 0 || this.runs.length === 0;
  }

  /** The integer, when it is one and has at most `maxDigits` digits. */
  toBigInt(maxDigits = 19): bigint | undefined {
    if (!this.isInteger() || this.digitCount() + this.exponent > maxDigits) return undefined;
    const digits = this.runs.map((r) => String(r.digit).repeat(r.count)).join('');
    const n = BigInt(digits + '0'.repeat(this.exponent));
    return this.negative ? -n : n;
  }

  /**
   * The nearest double to `this` × 10^`shift` (ties to even), as Go's `big.Float.Float64` gives it:
   * read from at most 40 significant digits and a sticky digit for the rest.
   */
  toNumber(shift = 0): number {
    if (this.runs.length === 0) return 0;
    let digits = '';
    let rest = false;
    for (const r of this.runs) {
      if (digits.length >= 40) {
        rest = true;
        break;
      }
      const take = Math.min(r.count, 40 - digits.length);
      digits += String(r.digit).repeat(take);
      if (take < r.count) rest = true;
    }
    const dropped = this.digitCount() - digits.length;
    const text = `${this.negative ? '-' : ''}${digits}${rest ? '1' : ''}e${this.exponent + shift + dropped - (rest ? 1 : 0)}`;
    return Number(text);
  }

  /** The digits and exponent (`digits` × 10^`exponent`), written out: only for numbers known to be short. */
  toDigits(): { negative: boolean; digits: string; exponent: number } {
    return { negative: this.negative, digits: this.runs.map((r) => String(r.digit).repeat(r.count)).join(''), exponent: this.exponent };
  }

  /** Runs from the least significant digit at position `base` upwards (zeros below `exponent` included). */
  static segments(d: Decimal, base: number): Run[] {
    const out: Run[] = [];
    if (d.exponent > base) out.push({ digit: 0, count: d.exponent - base });
    for (let i = d.runs.length - 1; i >= 0; i--) out.push(d.runs[i]);
    return out;
  }

  /** The runs, most significant first. */
  static runsOf(d: Decimal): readonly Run[] {
    return d.runs;
  }

  /** The number of digits. */
  static lengthOf(d: Decimal): number {
    return d.digitCount();
  }
}

/** Compares |a| and |b|. */
function compareAbs(a: Decimal, b: Decimal): number {
  const ra = Decimal.runsOf(a);
  const rb = Decimal.runsOf(b);
  if (ra.length === 0 || rb.length === 0) return ra.length === rb.length ? 0 : ra.length === 0 ? -1 : 1;
  const topA = a.exponent + Decimal.lengthOf(a);
  const topB = b.exponent + Decimal.lengthOf(b);
  if (topA !== topB) return topA < topB ? -1 : 1;
  let i = 0;
  let j = 0;
  let leftA = ra[0].count;
  let leftB = rb[0].count;
  while (i < ra.length && j < rb.length) {
    if (ra[i].digit !== rb[j].digit) return ra[i].digit < rb[j].digit ? -1 : 1;
    const step = Math.min(leftA, leftB);
    leftA -= step;
    leftB -= step;
    if (leftA === 0 && ++i < ra.length) leftA = ra[i].count;
    if (leftB === 0 && ++j < rb.length) leftB = rb[j].count;
  }
  // Equal so far: the one with digits left (its last digit is not zero) is larger.
  return i < ra.length ? 1 : j < rb.length ? -1 : 0;
}

/**
 * Walks |a| and |b| from the least significant digit in stretches where both digits are constant,
 * calling `step(x, y, count)` for each; returns the runs `step` emitted, most significant first.
 */
function walk(a: Decimal, b: Decimal, step: (x: number, y: number, count: number, out: Run[]) => void, last: (out: Run[]) => void): Run[] {
  const base = Math.min(a.exponent, b.exponent);
  const sa = Decimal.segments(a, base);
  const sb = Decimal.segments(b, base);
  const out: Run[] = [];
  let i = 0;
  let j = 0;
  let leftA = sa[0]?.count ?? 0;
  let leftB = sb[0]?.count ?? 0;
  while (i < sa.length || j < sb.length) {
    const x = i < sa.length ? sa[i].digit : 0;
    const y = j < sb.length ? sb[j].digit : 0;
    const count = i >= sa.length ? leftB : j >= sb.length ? leftA : Math.min(leftA, leftB);
    step(x, y, count, out);
    if (i < sa.length) {
      leftA -= count;
      if (leftA === 0 && ++i < sa.length) leftA = sa[i].count;
    }
    if (j < sb.length) {
      leftB -= count;
      if (leftB === 0 && ++j < sb.length) leftB = sb[j].count;
    }
  }
  last(out);
  return out.reverse();
}

/**
 * |a| + |b| as runs. Within a stretch of constant digits x and y the carry out of the first position
 * is the carry of every later one (x + y + c ≥ 10 with c ≤ 1 implies x + y + 1 ≥ 10, and the converse),
 * so a stretch becomes at most two runs.
 */
function addAbs(a: Decimal, b: Decimal): Run[] {
  let carry = 0;
  return walk(a, b, (x, y, count, out) => {
    const first = x + y + carry;
    out.push({ digit: first % 10, count: 1 });
    carry = first >= 10 ? 1 : 0;
    if (count > 1) out.push({ digit: (x + y + carry) % 10, count: count - 1 });
  }, (out) => {
    if (carry === 1) out.push({ digit: 1, count: 1 });
  });
}

/** |a| − |b| for |a| > |b| as runs (the borrow is constant within a stretch, as the carry is). */
function subAbs(a: Decimal, b: Decimal): Run[] {
  let borrow = 0;
  return walk(a, b, (x, y, count, out) => {
    const first = x - y - borrow;
    out.push({ digit: (first + 10) % 10, count: 1 });
    borrow = first < 0 ? 1 : 0;
    if (count > 1) out.push({ digit: (x - y - borrow + 10) % 10, count: count - 1 });
  }, () => undefined);
}
