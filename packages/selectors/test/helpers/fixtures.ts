// Loads the upstream behaviour vectors copied into test/fixtures (transcribed from the Kubernetes
// tests each case names in its `upstream` field).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SelectorParseError } from '@kubekit/selectors';

/** One case of a vectors file; the group decides which other fields it has. */
export interface VectorCase {
  id: string;
  group: string;
  name: string;
  upstream: string;
  expected: Record<string, unknown>;
  [field: string]: unknown;
}

interface VectorFile {
  cases: VectorCase[];
}

function load(name: string): VectorCase[] {
  const file = JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as VectorFile;
  return file.cases;
}

export const fieldCases = load('field_selectors.json');
export const labelCases = load('label_selectors.json');

/** The cases of one group, failing loudly if the group is missing (so a table cannot silently vanish). */
export function group(cases: readonly VectorCase[], name: string): VectorCase[] {
  const out = cases.filter((c) => c.group === name);
  if (out.length === 0) throw new Error(`no vector cases in group ${name}`);
  return out;
}

/** A short title for a case: its id, the upstream test it comes from, and its name. */
export function title(c: VectorCase): string {
  const test = c.upstream.split(' ').pop() ?? c.upstream;
  const name = c.name.length > 90 ? `${c.name.slice(0, 87)}...` : c.name;
  return `${c.id} (${test}): ${name}`;
}

/** Runs `fn` and returns the SelectorParseError it throws, failing if it throws nothing or something else. */
export function parseError(fn: () => unknown): SelectorParseError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(SelectorParseError);
    const e = err as SelectorParseError;
    expect(e.reason).to.equal('BadRequest');
    expect(e.code).to.equal(400);
    expect(e.name).to.equal('SelectorParseError');
    return e;
  }
  expect.fail('expected a SelectorParseError, but nothing was thrown');
}
