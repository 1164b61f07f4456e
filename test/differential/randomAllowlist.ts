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

/** Whether a schema has a node with both `x-kubernetes-int-or-string` and a `type`. */
function intOrStringWithType(v: unknown): boolean {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    const o = x as Record<string, unknown>;
    if (o['x-kubernetes-int-or-string'] === true && typeof o.type === 'string') return true;
    stack.push(...Object.values(o));
  }
  return false;
}

export const allowedRandomDifferences: AllowedRandomDifference[] = [
  {
    name: 'managed fields of an int-or-string node with a type',
    reason: 'structured-merge-diff types a node with x-kubernetes-int-or-string and type: string as a string scalar, so the apiserver\'s field manager fails on an integer there (which the schema validator, typing it [integer, string], accepts) and FieldManager.UpdateNoErrors drops the object\'s managed fields; kubekit\'s field manager has one scalar type and keeps them. Visible only where a Strict patch\'s 422 quotes the object with its managedFields; status, reason and the strict decoding error agree. Matching it needs typed scalars in packages/apiserver/src/managedFields for a schema the apiserver only accepts by oversight.',
    matches: (d) => d.op === 'merge patch' && intOrStringWithType(d.case.crd.spec.versions) && equalMasked(d, (j) => j.replace(/\\+"managedFields\\+":\[.*?\],(?=\\+"name\\+")/g, '')),
  },
];
