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

export const allowedRandomDifferences: AllowedRandomDifference[] = [];
