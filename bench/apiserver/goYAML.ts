// Cost of the embedded server's YAML answers (jsonToGoYAML, sigs.k8s.io/yaml's JSONToYAML byte for
// byte) on a list of 5,000 ConfigMaps, against JSON.stringify of the same list (the JSON answer) and
// the yaml package's stringify (a general YAML writer), measured in one run.
//
// Run: node --import tsx --conditions=kubekit-source bench/apiserver/goYAML.ts
import { stringify as yamlStringify } from 'yaml';
import { jsonToGoYAML } from '../../packages/apiserver/src/internal/goYAML.js';
import { measure, ratio, report } from '../internal/measure.js';

function configMap(i: number): unknown {
  return {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: {
      name: `config-${i}`, namespace: 'default', uid: `6f1c0a8e-2f1b-4f7a-9a55-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + i),
      creationTimestamp: '2026-11-28T02:55:57Z', labels: { app: 'web', tier: String(i % 3), enabled: 'true' },
      annotations: { description: 'A configuration map with a description long enough to be folded at the eightieth column by go-yaml.' },
    },
    data: { 'app.properties': `port=${8000 + i}\nlog.level=info\nfeature.x=on\n`, replicas: String(i % 5), mode: 'production', empty: '' },
  };
}

const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9999' }, items: Array.from({ length: 5000 }, (_, i) => configMap(i)) };
const text = JSON.stringify(list);
console.log(`5,000 ConfigMaps: ${(text.length / 1e6).toFixed(1)} MB of JSON, ${(jsonToGoYAML(text).length / 1e6).toFixed(1)} MB of YAML`);

const stringify = measure('JSON.stringify(list)', [list], (l) => JSON.stringify(l));
const goYAML = measure('jsonToGoYAML(JSON.stringify(list))', [list], (l) => jsonToGoYAML(JSON.stringify(l)));
const yamlPackage = measure('yaml stringify(list)', [list], (l) => yamlStringify(l));
report([stringify, goYAML, yamlPackage]);
ratio('jsonToGoYAML vs JSON.stringify', goYAML, stringify);
ratio('jsonToGoYAML vs yaml stringify', goYAML, yamlPackage);
