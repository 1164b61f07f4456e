// Tiny measuring helpers shared by the benchmarks: warm up, then time enough iterations to be stable.
// Benchmarks report ratios against a baseline measured in the same run; absolute times are context only.

/** One measured operation: nanoseconds per call (median of several rounds). */
export interface Measurement {
  name: string;
  nsPerOp: number;
}

/** Runs `fn` over `inputs` repeatedly (warm-up first) and returns the median cost per call. */
export function measure<T>(name: string, inputs: readonly T[], fn: (input: T) => unknown, rounds = 7, minMs = 150): Measurement {
  let sink: unknown;
  const warmEnd = performance.now() + minMs;
  while (performance.now() < warmEnd) for (const x of inputs) sink = fn(x);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    const end = performance.now() + minMs;
    do {
      for (const x of inputs) sink = fn(x);
      calls += inputs.length;
    } while (performance.now() < end);
    samples.push(Number(process.hrtime.bigint() - start) / calls);
  }
  if (sink === Symbol.for('never')) console.log(sink);
  samples.sort((a, b) => a - b);
  return { name, nsPerOp: samples[Math.floor(samples.length / 2)] };
}

/** Prints measurements as a table. */
export function report(ms: readonly Measurement[]): void {
  const width = Math.max(...ms.map((m) => m.name.length));
  for (const m of ms) console.log(`${m.name.padEnd(width)}  ${m.nsPerOp.toFixed(1).padStart(10)} ns/op`);
}

/** Prints `a / b` as a ratio line. */
export function ratio(label: string, a: Measurement, b: Measurement): number {
  const r = a.nsPerOp / b.nsPerOp;
  console.log(`ratio ${label}: ${r.toFixed(2)}`);
  return r;
}
