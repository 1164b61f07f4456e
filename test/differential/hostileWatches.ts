/**
 * Hostile watches (hostileCase.ts plays them): every combination of the list options a watch reads —
 * `resourceVersion` (none, "0", one not reached yet), `sendInitialEvents`, `resourceVersionMatch`,
 * `allowWatchBookmarks`, label and field selectors (a custom resource's selectable field among them),
 * `limit` and `continue` — on custom resources, built-in kinds and cluster-scoped Namespaces, through
 * `?watch=` and the deprecated `/watch/` paths (with a name, with `watch=false`), each ending after a second.
 * The answer is kept as the events' types and the case's object names, with the bookmark that ends the initial
 * events (a periodic bookmark depends on timing). Not drawn: a resourceVersion older than the server keeps
 * (its 410 names the oldest one each server has), and one not reached yet with `sendInitialEvents` (its
 * error event names the current one).
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';

/** A collection, by `?watch=` or the deprecated prefix, and the name a prefixed path may add. */
function target(r: Rng): { path: string; prefixed: boolean; kind: 'cr' | 'cm' | 'gd' | 'ns' } {
  const kind = r.pick(['cr', 'cm', 'gd', 'ns', 'cr', 'cm'] as const);
  const prefixed = r.chance(0.35);
  const name = prefixed && r.chance(0.4) ? `/${r.pick(kind === 'ns' ? ['{ns}', 'nope'] : kind === 'cm' ? ['cm', 'nope'] : kind === 'gd' ? ['g', 'nope'] : ['w', 'nope'])}` : '';
  if (!prefixed) return { path: { cr: '{cr}', cm: '{cm}', gd: '{gd}', ns: '/api/v1/namespaces' }[kind], prefixed, kind };
  const path = {
    cr: '/apis/hostile-diff.example.com/v1/watch/namespaces/{ns}/widgets',
    cm: '/api/v1/watch/namespaces/{ns}/configmaps',
    gd: '/apis/hostile-diff.example.com/v1/watch/namespaces/{ns}/gadgets',
    ns: '/api/v1/watch/namespaces',
  }[kind];
  return { path: path + name, prefixed, kind };
}

/** One hostile watch. */
export function watchRequest(r: Rng): HostileRequest {
  const { path, prefixed, kind } = target(r);
  const params: string[] = [];
  if (!prefixed) params.push(r.pick(['watch=true', 'watch=true', 'watch=1']));
  else if (r.chance(0.4)) params.push(r.pick(['watch=true', 'watch=false']));
  const rv = r.pick(['', '', 'resourceVersion=0', 'resourceVersion=', 'resourceVersion=99999999999']);
  if (rv !== '') params.push(rv);
  const future = rv.endsWith('99999999999');
  if (r.chance(0.4) && !future) params.push(r.pick(['sendInitialEvents=true', 'sendInitialEvents=false']));
  if (r.chance(0.3)) params.push(r.pick(['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch=Exact']));
  if (r.chance(0.6)) params.push(r.pick(['allowWatchBookmarks=true', 'allowWatchBookmarks=false']));
  if (r.chance(0.3)) params.push(r.pick(['labelSelector=app%3Dh', 'labelSelector=app%21%3Dh', 'labelSelector=case%3Dh', 'labelSelector=a%20in%20(']));
  if (r.chance(0.3)) {
    const fields = { cr: ['metadata.name%3Dw', 'metadata.name%21%3Dw', 'spec.a%3Dx'], cm: ['metadata.name%3Dcm', 'metadata.name%3Dnope', 'metadata.namespace%3D{ns}'], gd: ['spec.color%3Dblue', 'spec.color%3Dgreen', 'metadata.name%3Dg'], ns: ['metadata.name%3D{ns}', 'status.phase%3DActive', 'metadata.name%21%3D{ns}'] }[kind];
    params.push(`fieldSelector=${r.pick(fields)}`);
  }
  if (r.chance(0.1)) params.push(r.pick(['limit=1', 'continue=abc', 'limit=1&continue=abc']));
  params.push('timeoutSeconds=1');
  const query = params.join('&');
  return { kind: 'watch', label: `${prefixed ? 'deprecated path, ' : ''}${kind}${path.endsWith('/nope') ? ' nope' : /\/(w|cm|g|\{ns\})$/.test(path) && prefixed ? ' by name' : ''}?${query.replace(/%([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))}`, method: 'GET', path: `${path}?${query}` };
}
