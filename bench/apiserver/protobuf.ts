// Cost of the embedded server's protobuf answers (encodeProtobuf: the envelope and the generated Marshal's
// bytes, written from the JSON form by the message schema) on lists of 5,000 ConfigMaps and 2,000 Pods,
// against JSON.stringify of the same list (the JSON answer), measured in one run.
//
// Run: node --import tsx --conditions=kubekit-source bench/apiserver/protobuf.ts
import { encodeProtobuf } from '../../packages/apiserver/src/internal/protobufEncode.js';
import { measure, ratio, report } from '../internal/measure.js';

function meta(kind: string, i: number): Record<string, unknown> {
  return {
    name: `${kind}-${i}`, namespace: 'default', uid: `6f1c0a8e-2f1b-4f7a-9a55-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + i),
    creationTimestamp: '2026-11-28T02:55:57Z', labels: { app: 'web', tier: String(i % 3), enabled: 'true' },
    annotations: { description: 'An annotation long enough to be like the ones tools leave behind.' },
    managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-11-28T02:55:57Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {}, 'f:tier': {}, 'f:enabled': {} } } } }],
  };
}

function configMap(i: number): unknown {
  return {
    metadata: meta('config', i),
    data: { 'app.properties': `port=${8000 + i}\nlog.level=info\nfeature.x=on\n`, replicas: String(i % 5), mode: 'production', empty: '' },
  };
}

function pod(i: number): unknown {
  return {
    metadata: meta('pod', i),
    spec: {
      containers: [{
        name: 'web', image: 'nginx:1.25', ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }], env: [{ name: 'MODE', value: 'production' }],
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        readinessProbe: { httpGet: { path: '/', port: 'http', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent',
      }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', nodeName: `node-${i % 10}`,
      securityContext: {}, schedulerName: 'default-scheduler', priority: 0, enableServiceLinks: true, preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
    status: {
      phase: 'Running', qosClass: 'Burstable', podIP: `10.0.${i % 250}.${i % 200}`, hostIP: '192.168.0.1', startTime: '2026-11-28T02:55:58Z',
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-11-28T02:56:00Z' }],
      containerStatuses: [{ name: 'web', ready: true, restartCount: 0, image: 'nginx:1.25', imageID: 'docker.io/library/nginx@sha256:0123', started: true, state: { running: { startedAt: '2026-11-28T02:55:59Z' } } }],
    },
  };
}

const lists = [
  { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9999' }, items: Array.from({ length: 5000 }, (_, i) => configMap(i)) },
  { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '9999' }, items: Array.from({ length: 2000 }, (_, i) => pod(i)) },
];
const results = [];
for (const list of lists) {
  const bytes = encodeProtobuf(list);
  if (bytes === undefined) throw new Error(`no message for ${list.kind}`);
  console.log(`${list.items.length} items of ${list.kind}: ${(JSON.stringify(list).length / 1e6).toFixed(1)} MB of JSON, ${(bytes.length / 1e6).toFixed(1)} MB of protobuf`);
  const stringify = measure(`JSON.stringify(${list.kind})`, [list], (l) => JSON.stringify(l));
  const protobuf = measure(`encodeProtobuf(${list.kind})`, [list], (l) => encodeProtobuf(l));
  results.push([stringify, protobuf] as const);
}
report(results.flat());
for (const [stringify, protobuf] of results) ratio(`${protobuf.name} vs ${stringify.name}`, protobuf, stringify);
