/**
 * apimachinery's `diff.Diff` for the texts it compares: a unified diff with three lines of context, as
 * go-difflib (a port of Python's difflib) writes it without file names — `SequenceMatcher`'s matching
 * blocks (no junk: the texts diffed here stay far below the 200 lines where its auto-junk starts),
 * grouped opcodes, `@@ -a,b +c,d @@` ranges.
 *
 * @see https://github.com/pmezard/go-difflib/blob/master/difflib/difflib.go
 */

type Opcode = [tag: 'e' | 'r' | 'd' | 'i', i1: number, i2: number, j1: number, j2: number];

/** `SplitLines`: each line with its newline, the last one given one. */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  lines[lines.length - 1] += '\n';
  return lines;
}

/** `find_longest_match` without junk: the longest common run, the earliest in `a`, then in `b`. */
function longestMatch(a: string[], b2j: Map<string, number[]>, alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
  let [besti, bestj, bestsize] = [alo, blo, 0];
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i]) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
    }
    j2len = next;
  }
  return [besti, bestj, bestsize];
}

function matchingBlocks(a: string[], b: string[]): [number, number, number][] {
  const b2j = new Map<string, number[]>();
  b.forEach((line, j) => b2j.set(line, [...(b2j.get(line) ?? []), j]));
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  const blocks: [number, number, number][] = [];
  // Bounded by the lines: each step either ends or splits a range around a match of at least one line.
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const [i, j, k] = longestMatch(a, b2j, alo, ahi, blo, bhi);
    if (k === 0) continue;
    blocks.push([i, j, k]);
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const merged: [number, number, number][] = [];
  for (const block of blocks) {
    const last = merged.at(-1);
    if (last !== undefined && last[0] + last[2] === block[0] && last[1] + last[2] === block[1]) last[2] += block[2];
    else merged.push([...block]);
  }
  merged.push([a.length, b.length, 0]);
  return merged;
}

function opcodes(a: string[], b: string[]): Opcode[] {
  const codes: Opcode[] = [];
  let [i, j] = [0, 0];
  for (const [ai, bj, size] of matchingBlocks(a, b)) {
    if (i < ai && j < bj) codes.push(['r', i, ai, j, bj]);
    else if (i < ai) codes.push(['d', i, ai, j, bj]);
    else if (j < bj) codes.push(['i', i, ai, j, bj]);
    if (size > 0) codes.push(['e', ai, ai + size, bj, bj + size]);
    [i, j] = [ai + size, bj + size];
  }
  return codes;
}

function groupedOpcodes(a: string[], b: string[], n: number): Opcode[][] {
  const codes = opcodes(a, b);
  if (codes.length === 0) codes.push(['e', 0, 1, 0, 1]);
  const first = codes[0];
  if (first[0] === 'e') codes[0] = ['e', Math.max(first[1], first[2] - n), first[2], Math.max(first[3], first[4] - n), first[4]];
  const last = codes[codes.length - 1];
  if (last[0] === 'e') codes[codes.length - 1] = ['e', last[1], Math.min(last[2], last[1] + n), last[3], Math.min(last[4], last[3] + n)];
  const groups: Opcode[][] = [];
  let group: Opcode[] = [];
  for (const code of codes) {
    const [tag, , i2, , j2] = code;
    let [, i1, , j1] = code;
    if (tag === 'e' && i2 - i1 > 2 * n) {
      group.push([tag, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)]);
      groups.push(group);
      group = [];
      [i1, j1] = [Math.max(i1, i2 - n), Math.max(j1, j2 - n)];
    }
    group.push([tag, i1, i2, j1, j2]);
  }
  if (group.length > 0 && !(group.length === 1 && group[0][0] === 'e')) groups.push(group);
  return groups;
}

function range(start: number, stop: number): string {
  const length = stop - start;
  if (length === 1) return String(start + 1);
  return `${length === 0 ? start : start + 1},${length}`;
}

/** The unified diff of two texts (`''` when they are equal). */
export function unifiedDiff(from: string, to: string): string {
  const a = splitLines(from);
  const b = splitLines(to);
  let out = '';
  for (const group of groupedOpcodes(a, b, 3)) {
    const first = group[0];
    const last = group[group.length - 1];
    out += `@@ -${range(first[1], last[2])} +${range(first[3], last[4])} @@\n`;
    for (const [tag, i1, i2, j1, j2] of group) {
      if (tag === 'e') {
        for (const line of a.slice(i1, i2)) out += ` ${line}`;
        continue;
      }
      if (tag === 'r' || tag === 'd') for (const line of a.slice(i1, i2)) out += `-${line}`;
      if (tag === 'r' || tag === 'i') for (const line of b.slice(j1, j2)) out += `+${line}`;
    }
  }
  return out;
}
