/**
 * Known classes of differences in the hostile differential suite (hostile.test.ts), each with the reason
 * it is accepted. As in randomAllowlist.ts, an entry matches a class of answers: a difference outside
 * every class fails the suite.
 */
import type { Step } from './normalize.js';
import type { HostileCase } from './hostileCase.js';

/** One differing step of a hostile case, as the predicates see it. */
export interface HostileDifference {
  /** The request's kind (`json patch`, `apply`, …), or `state` / `canary` for the reads after it. */
  op: string;
  label: string;
  kubekit: Step | undefined;
  reference: Step | undefined;
  case: HostileCase;
}

export interface AllowedHostileDifference {
  name: string;
  reason: string;
  matches(d: HostileDifference): boolean;
}

export const allowedHostileDifferences: AllowedHostileDifference[] = [];
