// A seeded random generator shared by tests and benchmarks, so that a churn, a chaos schedule or a
// benchmark's data is the same on every run with the same seed. Not for packages' sources.

/**
 * A small seeded generator (mulberry32): returns a function giving numbers in [0, 1), the same
 * sequence for the same `seed`.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
