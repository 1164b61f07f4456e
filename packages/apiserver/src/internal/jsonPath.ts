/**
 * Reading and writing the scale subresource's paths (`.spec.replicas`) with @kubekit/crd's JSONPath.
 */
import { evaluateJSONPath, parseJSONPath } from '@kubekit/crd';
import { getOwn, isObject, setOwn } from './own.js';

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
    let next = getOwn(cur, name);
    if (!isObject(next)) {
      next = {};
      setOwn(cur, name, next);
    }
    cur = next as Record<string, unknown>;
  }
  setOwn(cur, (steps[steps.length - 1] as { name: string }).name, value);
}
