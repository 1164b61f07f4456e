// Cost of dropping unknown fields from built-in objects with their published OpenAPI schemas (what every
// write of a built-in kind now pays, packages/apiserver/src/internal/pruneUnknownFields.ts), against
// structuredClone of the same objects, measured in one run. 2,000 Deployments with two containers
// (ports, env, probes, volumes) and 2,000 ConfigMaps; every tenth Deployment carries two unknown fields.
// Run: node --import tsx --conditions=kubekit-source bench/apiserver/builtinSchemas.ts
import { builtinKindSchema } from '@kubekit/apiserver';
import { pruneUnknownFields } from '../../packages/apiserver/src/internal/pruneUnknownFields.js';
import { measure, ratio, report } from '../internal/measure.js';

const deploymentSchema = builtinKindSchema({ group: 'apps', version: 'v1', kind: 'Deployment' })!;
const configMapSchema = builtinKindSchema({ group: '', version: 'v1', kind: 'ConfigMap' })!;

const deployments = Array.from({ length: 2000 }, (_, i) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: `web-${i}`, namespace: 'default', labels: { app: 'web', shard: String(i % 7) }, annotations: { note: 'x' } },
  spec: {
    replicas: 1 + (i % 5),
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'app', image: `registry.example.com/app:${i}`, ports: [{ containerPort: 8080, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }], readinessProbe: { httpGet: { path: '/healthz', port: 8080 } }, resources: { limits: { cpu: '1' } }, volumeMounts: [{ name: 'data', mountPath: '/data' }], ...(i % 10 === 0 ? { colour: 'blue' } : {}) },
          { name: 'sidecar', image: 'envoy:1.30', args: ['--v=2'] },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
        ...(i % 10 === 0 ? { bogus: true } : {}),
      },
    },
  },
}));
const configMaps = Array.from({ length: 2000 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default' }, data: { a: String(i), b: 'x'.repeat(64) } }));

let unknown = 0;
for (const d of deployments) unknown += pruneUnknownFields(structuredClone(d), deploymentSchema).length;
console.log(`${deployments.length} Deployments: ${unknown} unknown fields (expected ${2 * deployments.length / 10})`);

const cloneD = measure('structuredClone(deployment)', deployments, (o) => structuredClone(o));
const pruneD = measure('structuredClone + prune(deployment)', deployments, (o) => pruneUnknownFields(structuredClone(o), deploymentSchema));
const cloneC = measure('structuredClone(configMap)', configMaps, (o) => structuredClone(o));
const pruneC = measure('structuredClone + prune(configMap)', configMaps, (o) => pruneUnknownFields(structuredClone(o), configMapSchema));
report([cloneD, pruneD, cloneC, pruneC]);
ratio('Deployment: clone + prune / clone', pruneD, cloneD);
ratio('ConfigMap: clone + prune / clone', pruneC, cloneC);
