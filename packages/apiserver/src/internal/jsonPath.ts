/**
 * Reading and writing the scale subresource's paths (`.spec.replicas`) with @kubekit/crd's JSONPath.
 */
import { evaluateJSONPath, parseJSONPath } from '@kubekit/crd';

/** The single value at a path (`.spec.replicas`), or undefined. */
export function getPath(obj: unknown, path: string): unknown {
  const r = evaluateJSONPath(obj, path);
  return r.length > 0 ? r[0] : undefined;
}

/** Sets the value at a simple field path (`.spec.replicas`), creating objects on the way. */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const steps = parseJSONPath(path);
  if (steps === undefined || steps.length === 0 || steps.some((s) => s.kind !== 'field')) throw new Error(`not a simple path: ${path}`);
  let cur = obj;
  for (let i = 0; i < steps.length - 1; i++) {
    const name = (steps[i] as { name: string }).name;
    const next = cur[name];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[name] = {};
    cur = cur[name] as Record<string, unknown>;
  }
  cur[(steps[steps.length - 1] as { name: string }).name] = value;
}
