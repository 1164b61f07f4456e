/**
 * Go's `sort.Sort` (pattern-defeating quicksort since Go 1.19), reproduced step for step so that the
 * order of elements that compare equal comes out exactly as in the apiserver.
 *
 * It matters for label selectors: `labels.Parse` and `Selector.Add` sort requirements by key with
 * this unstable sort, so `a=1,a!=2,...` with more than twelve requirements and repeated keys prints
 * its requirements in the order pdqsort leaves them, not in input order. (With at most twelve
 * elements the sort is an insertion sort and therefore stable.)
 *
 * @see https://github.com/golang/go/blob/master/src/sort/zsortinterface.go
 */

const enum Hint {
  Unknown,
  Increasing,
  Decreasing,
}

/** The view of a sequence that the algorithm needs: Go's `sort.Interface`. */
interface SortData {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

/** Sorts `items` in place exactly as Go's `sort.Sort` would with the given `less`. */
export function goSort<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  const n = items.length;
  if (n <= 1) return items;
  const data: SortData = {
    less: (i, j) => less(items[i], items[j]),
    swap: (i, j) => {
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    },
  };
  pdqsort(data, 0, n, bitLength(n));
  return items;
}

/** Go's `bits.Len`: the number of bits needed to represent `n`. */
function bitLength(n: number): number {
  let bits = 0;
  while (n > 0) {
    bits++;
    n = Math.floor(n / 2);
  }
  return bits;
}

function insertionSort(data: SortData, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && data.less(j, j - 1); j--) data.swap(j, j - 1);
  }
}

function siftDown(data: SortData, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && data.less(first + child, first + child + 1)) child++;
    if (!data.less(first + root, first + child)) return;
    data.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(data: SortData, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.floor((hi - 1) / 2); i >= 0; i--) siftDown(data, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    data.swap(first, first + i);
    siftDown(data, 0, i, first);
  }
}

function pdqsort(data: SortData, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) {
      insertionSort(data, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(data, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(data, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(data, a, b);
    if (hint === Hint.Decreasing) {
      reverseRange(data, a, b);
      pivot = b - 1 - (pivot - a);
      hint = Hint.Increasing;
    }
    if (wasBalanced && wasPartitioned && hint === Hint.Increasing) {
      if (partialInsertionSort(data, a, b)) return;
    }
    if (a > 0 && !data.less(a - 1, pivot)) {
      a = partitionEqual(data, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(data, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.floor(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(data, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(data, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition(data: SortData, a: number, b: number, pivot: number): [number, boolean] {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && data.less(i, a)) i++;
  while (i <= j && !data.less(j, a)) j--;
  if (i > j) {
    data.swap(j, a);
    return [j, true];
  }
  data.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && data.less(i, a)) i++;
    while (i <= j && !data.less(j, a)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  data.swap(j, a);
  return [j, false];
}

function partitionEqual(data: SortData, a: number, b: number, pivot: number): number {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !data.less(a, i)) i++;
    while (i <= j && data.less(a, j)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort(data: SortData, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !data.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    data.swap(i, i - 1);
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
  }
  return false;
}

const mask64 = (1n << 64n) - 1n;

function breakPatterns(data: SortData, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // Go's xorshift seeded with the length: deterministic, so the result is reproducible.
  let random = BigInt(length);
  const modulus = 2 ** bitLength(length);
  const base = a + Math.floor(length / 4) * 2;
  for (let idx = base - 1; idx <= base + 1; idx++) {
    random ^= (random << 13n) & mask64;
    random ^= random >> 7n;
    random ^= (random << 17n) & mask64;
    let other = Number(random & BigInt(modulus - 1));
    if (other >= length) other -= length;
    data.swap(idx, a + other);
  }
}

function choosePivot(data: SortData, a: number, b: number): [number, Hint] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.floor(l / 4) * 1;
  let j = a + Math.floor(l / 4) * 2;
  let k = a + Math.floor(l / 4) * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(data, i - 1, i, i + 1, swaps);
      j = median(data, j - 1, j, j + 1, swaps);
      k = median(data, k - 1, k, k + 1, swaps);
    }
    j = median(data, i, j, k, swaps);
  }
  if (swaps.n === 0) return [j, Hint.Increasing];
  if (swaps.n === maxSwaps) return [j, Hint.Decreasing];
  return [j, Hint.Unknown];
}

function median(data: SortData, a: number, b: number, c: number, swaps: { n: number }): number {
  [a, b] = order2(data, a, b, swaps);
  [b, c] = order2(data, b, c, swaps);
  [a, b] = order2(data, a, b, swaps);
  return b;
}

function order2(data: SortData, a: number, b: number, swaps: { n: number }): [number, number] {
  if (data.less(b, a)) {
    swaps.n++;
    return [b, a];
  }
  return [a, b];
}

function reverseRange(data: SortData, a: number, b: number): void {
  let i = a;
  let j = b - 1;
  while (i < j) {
    data.swap(i, j);
    i++;
    j--;
  }
}
