// Heap cost (after GC) of importing one thing, in its own process. Prints one JSON line.
// Usage: node --expose-gc --import tsx --conditions=kubekit-source bench/informer/importCost.ts --what informer
import { parseArgs } from 'node:util';

declare const gc: () => void;
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const { values } = parseArgs({ options: { what: { type: 'string' } } });
const kubeconfig = [
  'apiVersion: v1', 'kind: Config', 'current-context: c',
  'clusters:', '- name: c', '  cluster:', '    server: https://127.0.0.1:6443',
  'users:', '- name: u', '  user:', '    token: t',
  'contexts:', '- name: c', '  context:', '    cluster: c', '    user: u',
].join('\n');

const before = heap();
const keep: unknown[] = [];
switch (values.what) {
  case 'nothing':
    break;
  case 'informer':
    keep.push(await import('@kubekit/informer'));
    break;
  case 'informer+loadKubeConfig': {
    const m = await import('@kubekit/informer');
    keep.push(m, await m.loadKubeConfig({ kind: 'string', text: kubeconfig }));
    break;
  }
  case 'informer+loadKubeConfig(client-node)': {
    const m = await import('@kubekit/informer');
    keep.push(m, await m.loadKubeConfig({ kind: 'string', text: kubeconfig }, { reader: 'client-node' }));
    break;
  }
  case 'client-node': {
    const k8s = await import('@kubernetes/client-node');
    const kc = new k8s.KubeConfig();
    kc.loadFromString(kubeconfig);
    keep.push(k8s, kc);
    break;
  }
  default:
    throw new Error(`unknown --what ${values.what}`);
}
const after = heap();
process.stdout.write(JSON.stringify({ what: values.what, heapMB: (after - before) / 1e6, kept: keep.length }) + '\n');
