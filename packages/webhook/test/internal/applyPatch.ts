// A minimal RFC 6902 applier (add/remove/replace) for checking createJSONPatch's output; it walks own
// properties only, as a server must.
import type { JSONPatchOperation } from '@kubekit/webhook';

function tokens(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`bad pointer ${path}`);
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function applyPatch(doc: unknown, patch: readonly JSONPatchOperation[]): unknown {
  let root = structuredClone(doc);
  for (const op of patch) {
    const path = tokens(op.path);
    if (path.length === 0) {
      if (op.op === 'remove') throw new Error('cannot remove the root');
      root = structuredClone(op.value);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const t of path.slice(0, -1)) {
      const next = Array.isArray(parent) ? parent[Number(t)] : Object.hasOwn(parent, t) ? parent[t] : undefined;
      if (typeof next !== 'object' || next === null) throw new Error(`missing ${op.path}`);
      parent = next as Record<string, unknown>;
    }
    const last = path[path.length - 1];
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(i, 0, structuredClone(op.value));
      else if (op.op === 'remove') parent.splice(i, 1);
      else parent[i] = structuredClone(op.value);
    } else if (op.op === 'remove') {
      if (!Object.hasOwn(parent, last)) throw new Error(`missing ${op.path}`);
      delete parent[last];
    } else {
      if (op.op === 'replace' && !Object.hasOwn(parent, last)) throw new Error(`missing ${op.path}`);
      Object.defineProperty(parent, last, { value: structuredClone(op.value), enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}
