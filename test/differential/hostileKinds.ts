/**
 * What the built-in kind families of the hostile suite (hostileDeployments.ts, hostileServices.ts) share:
 * random JSON patches over a kind's paths and values, and the patch requests drawn from its table.
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';

/** One to three random JSON patch operations over `paths`, with `values`. */
export function jsonPatchBody(r: Rng, paths: readonly string[], values: readonly string[]): string {
  const ops = Array.from({ length: r.int(1, 3) }, () => {
    const op = r.pick(['add', 'replace', 'replace', 'remove', 'test', 'move', 'copy']);
    const path = r.pick(paths);
    if (op === 'remove') return `{"op":"remove","path":"${path}"}`;
    if (op === 'move' || op === 'copy') return `{"op":"${op}","from":"${r.pick(paths)}","path":"${path}"}`;
    return `{"op":"${op}","path":"${path}","value":${r.pick(values)}}`;
  });
  return `[${ops.join(',')}]`;
}

/**
 * For a draw `g`: 0–3 a strategic merge patch from `patches`, 4–5 the same as a merge patch, 6 a JSON patch
 * (`jsonPatch`); otherwise `undefined` (the family's own requests).
 */
export function patchRequest(r: Rng, g: number, kind: string, path: string, patches: readonly [string, string][], query: (r: Rng) => string, jsonPatch: (r: Rng) => string): HostileRequest | undefined {
  if (g <= 3) {
    const [label, body] = r.pick(patches);
    return { kind, label: `strategic merge patch: ${label}`, method: 'PATCH', path: path + query(r), contentType: 'application/strategic-merge-patch+json', body };
  }
  if (g <= 5) {
    const [label, body] = r.pick(patches);
    return { kind, label: `merge patch: ${label}`, method: 'PATCH', path: path + query(r), contentType: 'application/merge-patch+json', body };
  }
  if (g === 6) return { kind, label: 'json patch', method: 'PATCH', path: path + query(r), contentType: 'application/json-patch+json', body: jsonPatch(r) };
  return undefined;
}
