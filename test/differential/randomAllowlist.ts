/**
 * Known classes of differences in the randomized differential suite (randomized.test.ts), each with
 * the reason it is accepted. Unlike allowlist.ts, entries match a class of answers (a predicate over a
 * differing step), since the cases are generated: a difference outside every class fails the suite.
 */
import type { Step } from './normalize.js';
import type { RandomCase } from './randomCase.js';

/** One differing step of a case, as the predicates see it. */
export interface StepDifference {
  /** The step's label without object names and queries: `create`, `update`, `merge patch`, `list`, … */
  op: string;
  label: string;
  kubekit: Step;
  reference: Step;
  case: RandomCase;
}

export interface AllowedRandomDifference {
  /** A short name of the class (reported with the figures). */
  name: string;
  reason: string;
  matches(d: StepDifference): boolean;
}

/** A step's JSON with the parts `mask` replaces; two steps equal under a mask differ only there. */
function equalMasked(d: StepDifference, mask: (json: string) => string): boolean {
  if (d.kubekit === undefined || d.reference === undefined) return false;
  return mask(JSON.stringify(d.kubekit)) === mask(JSON.stringify(d.reference));
}

export const allowedRandomDifferences: AllowedRandomDifference[] = [
  {
    name: 'CEL syntax error wording',
    reason: 'cel-go\'s ANTLR parser words syntax errors from its grammar\'s expected-token sets ("Syntax error: mismatched input \'<EOF>\' expecting {…}"), @bufbuild/cel\'s parser its own way ("found = but expecting end of input"), at other columns; the same class as allowlist.ts\'s crd/cel-compile-errors entry (packages/cel). Status, reason, field and the rest of the message agree.',
    matches: (d) => d.op === 'create CRD' && equalMasked(d, (j) => j.replace(/Syntax error: .*?\\n \| .*?\\n \| [ .]*\^/g, 'Syntax error: <cel>').replace(/<input>:\d+:\d+:/g, '<input>:<pos>:')),
  },
];
