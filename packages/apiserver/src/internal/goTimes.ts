/**
 * `metav1.Time` and `metav1.MicroTime` as kube-apiserver writes them back once decoded: parsed as Go's
 * `time.Parse` does (core's `parseRFC3339`) and written in UTC.
 */
import { parseRFC3339 } from '@kubekit/core';

const rfc3339Micro = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.(\d{6})(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * A `metav1.Time` (seconds) or `metav1.MicroTime` (`micro`: microseconds, six fraction digits exactly) as
 * kube-apiserver writes it back: parsed as Go's `time.Parse` does and written in UTC
 * (`2026-11-26T10:00:00.5+02:00` → `2026-11-26T08:00:00Z`; the zero time is null), or `undefined` for a
 * text it does not read as a time (left as it is: the decoder refuses it).
 */
export function canonicalTime(value: unknown, micro = false): string | null | undefined {
  if (typeof value !== 'string') return undefined;
  const fraction = micro ? rfc3339Micro.exec(value)?.[1] : '';
  if (fraction === undefined) return undefined;
  const t = parseRFC3339(value);
  if (!t.ok) return undefined;
  if (t.zero) return null;
  return micro ? `${t.text.slice(0, -1)}.${fraction}Z` : t.text;
}
