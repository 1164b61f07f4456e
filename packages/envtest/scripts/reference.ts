// `npm run reference [-- --version v1.35.4] [--feature-gates A=false] [--emulated-version 1.31] [--data-dir DIR]`:
// builds (first time) and starts the real kube-apiserver, prints its URL and kubeconfig path, and runs
// until Ctrl-C. `--build-only` builds and exits (CI runs that before the tests).
import { parseArgs } from 'node:util';
import { buildReferenceApiServer, startReferenceApiServer } from '@kubekit/envtest';

const { values } = parseArgs({
  options: {
    version: { type: 'string' },
    'feature-gates': { type: 'string' },
    'emulated-version': { type: 'string' },
    'data-dir': { type: 'string' },
    'build-only': { type: 'boolean' },
  },
});

const featureGates: Record<string, boolean> = {};
for (const pair of (values['feature-gates'] ?? '').split(',').filter((p) => p !== '')) {
  const [name, value] = pair.split('=');
  if (value !== 'true' && value !== 'false') throw new Error(`--feature-gates takes Name=true|false pairs, got ${JSON.stringify(pair)}`);
  featureGates[name] = value === 'true';
}

if (values['build-only']) {
  const build = await buildReferenceApiServer({ version: values.version });
  process.stdout.write(`${build.binary} (${build.version}, ${build.built ? `built in ${build.seconds} s` : 'up to date'})\n`);
} else {
  const server = await startReferenceApiServer({
    version: values.version, featureGates, emulatedVersion: values['emulated-version'], dataDir: values['data-dir'],
  });
  process.stdout.write(`kube-apiserver ${server.version} (pid ${server.pid}) is ready\nurl:        ${server.url}\nkubeconfig: ${server.kubeconfigPath}\n` +
    `try:        kubectl --kubeconfig ${server.kubeconfigPath} get namespaces\nCtrl-C stops it.\n`);
  const stop = () => { void server.close().then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
