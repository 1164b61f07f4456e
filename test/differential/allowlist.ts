/**
 * The one list of known differences between kubekit's embedded server and the real kube-apiserver.
 * Each entry names a scenario, optionally the steps the difference is confined to, and why it is
 * accepted (or who fixes it). A difference outside this list fails the differential suite; an entry
 * whose scenario has become identical is reported so it can be removed.
 */
export interface AllowedDifference {
  scenario: string;
  /** Step labels the difference is confined to; absent: any step of the scenario. */
  steps?: string[];
  reason: string;
}

export const allowedDifferences: AllowedDifference[] = [
];
