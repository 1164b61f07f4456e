/**
 * A list of conditions with `condition` set, as metav1's `SetStatusCondition`, core's `UpdatePodCondition`
 * and apiextensions' `SetCRDCondition` set one: it replaces the condition of its type, which keeps its
 * `lastTransitionTime` when its status does not change (else `condition`'s, the time of the change); a
 * condition of a new type is appended.
 */
export function withCondition<T extends { type?: unknown; status?: unknown; lastTransitionTime?: unknown }>(list: readonly T[], condition: T): T[] {
  const existing = list.find((c) => c.type === condition.type);
  if (existing === undefined) return [...list, condition];
  const next = existing.status === condition.status ? { ...condition, lastTransitionTime: existing.lastTransitionTime } : condition;
  return list.map((c) => (c === existing ? next : c));
}
