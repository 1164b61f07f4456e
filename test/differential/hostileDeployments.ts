/**
 * Hostile writes to a Deployment (hostileCase.ts plays them): the built-in kind operators create and
 * patch most, through every patch type (strategic merge patches with their directives, merge and JSON
 * patches, server-side apply with the typed list keys), updates, and its status and scale
 * subresources. Each case starts from the same Deployment (`d`), so every answer is checked against
 * what the apiserver's strategy, defaulting and validation make of it.
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';
import { jsonPatchBody, patchRequest } from './hostileKinds.js';

const D = '{dp}/d';

/** The Deployment every case starts from: two containers (one with ports, env, resources), a rolling update. */
export function deployment(ns: string, name = 'd'): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns, labels: { app: 'h' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'h' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'h' } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.27', args: ['-g', 'daemon off;'], ports: [{ name: 'http', containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], resources: { limits: { cpu: '500m', memory: '128Mi' } } },
            { name: 'side', image: 'busybox:1.36', command: ['sleep', 'infinity'] },
          ],
          volumes: [{ name: 'data', emptyDir: {} }],
        },
      },
    },
  };
}

const container = (fields: string): string => `{"spec":{"template":{"spec":{"containers":[{"name":"web"${fields}}]}}}}`;
const podSpec = (fields: string): string => `{"spec":{"template":{"spec":{${fields}}}}}`;

/** Patches meant for the strategic merge patch, also sent as merge patches (whose lists replace). */
export const deploymentPatches: [string, string][] = [
  ['image', container(',"image":"nginx:1.28"')],
  ['a new container', '{"spec":{"template":{"spec":{"containers":[{"name":"extra","image":"redis:7"}]}}}}'],
  ['delete a container', '{"spec":{"template":{"spec":{"containers":[{"name":"side","$patch":"delete"}]}}}}'],
  ['delete every container', '{"spec":{"template":{"spec":{"containers":[{"name":"side","$patch":"delete"},{"name":"web","$patch":"delete"}]}}}}'],
  ['replace the containers', '{"spec":{"template":{"spec":{"containers":[{"$patch":"replace"},{"name":"only","image":"x"}]}}}}'],
  ['replace the pod spec', '{"spec":{"template":{"spec":{"$patch":"replace","containers":[{"name":"r","image":"r"}]}}}}'],
  ['container order', '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"side"},{"name":"web"}],"containers":[{"name":"web","image":"nginx:1.29"}]}}}}'],
  ['element order naming a missing container', '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"ghost"}]}}}}'],
  ['a container without its merge key', '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}'],
  ['containers null', podSpec('"containers":null')],
  ['containers not a list', podSpec('"containers":{"name":"web"}')],
  ['a port', container(',"ports":[{"containerPort":8080,"name":"alt"}]')],
  ['a port out of range', container(',"ports":[{"containerPort":70000}]')],
  ['a duplicate port name', container(',"ports":[{"containerPort":81,"name":"http"}]')],
  ['a port of another protocol', container(',"ports":[{"containerPort":80,"protocol":"UDP","name":"dns"}]')],
  ['an env var deleted', container(',"env":[{"name":"A","$patch":"delete"}]')],
  ['an env var with a bad name', container(',"env":[{"name":"1 BAD","value":"x"}]')],
  ['an env var from nowhere', container(',"env":[{"name":"C","valueFrom":{}}]')],
  ['an arg removed', container(',"$deleteFromPrimitiveList/args":["-g"]')],
  ['args null', container(',"args":null')],
  ['a bad quantity', container(',"resources":{"limits":{"cpu":"abc"}}')],
  ['requests above limits', container(',"resources":{"requests":{"cpu":"2"}}')],
  ['a negative quantity', container(',"resources":{"requests":{"memory":"-1Mi"}}')],
  ['an unknown resource', container(',"resources":{"limits":{"gpu":"1"}}')],
  ['a bad pull policy', container(',"imagePullPolicy":"Sometimes"')],
  ['an image with spaces', container(',"image":" nginx "')],
  ['no image', container(',"image":null')],
  ['a probe without a handler', container(',"livenessProbe":{"periodSeconds":5}')],
  ['a probe on a named port', container(',"readinessProbe":{"httpGet":{"path":"/","port":"http"}}')],
  ['a probe on a missing port name', container(',"readinessProbe":{"tcpSocket":{"port":"nope"}}')],
  ['a mount of a missing volume', container(',"volumeMounts":[{"name":"ghost","mountPath":"/x"}]')],
  ['a mount', container(',"volumeMounts":[{"name":"data","mountPath":"/data"}]')],
  ['a relative mount path', container(',"volumeMounts":[{"name":"data","mountPath":"data"}]')],
  ['a negative user', container(',"securityContext":{"runAsUser":-1}')],
  ['a bad capability', container(',"securityContext":{"capabilities":{"add":["NET_ADMIN"],"drop":[""]}}')],
  ['container __proto__', container(',"__proto__":{"polluted":"yes"}')],
  ['container name changed by key', '{"spec":{"template":{"spec":{"containers":[{"name":"Web_1","image":"x"}]}}}}'],
  ['an init container named like a container', podSpec('"initContainers":[{"name":"web","image":"x"}]')],
  ['a volume of two kinds', podSpec('"volumes":[{"name":"data","emptyDir":null,"hostPath":{"path":"/tmp"}}]')],
  ['a volume deleted', podSpec('"volumes":[{"name":"data","$patch":"delete"}]')],
  ['restartPolicy Never', podSpec('"restartPolicy":"Never"')],
  ['a negative grace period', podSpec('"terminationGracePeriodSeconds":-5')],
  ['a bad dnsPolicy', podSpec('"dnsPolicy":"Nope"')],
  ['a bad node selector', podSpec('"nodeSelector":{"bad key":"v"}')],
  ['a toleration with a value and Exists', podSpec('"tolerations":[{"key":"k","operator":"Exists","value":"v"}]')],
  ['an affinity with an empty term', podSpec('"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}}')],
  ['hostNetwork with a port', `{"spec":{"template":{"spec":{"hostNetwork":true,"containers":[{"name":"web","ports":[{"containerPort":80,"hostPort":81}]}]}}}}`],
  ['the selector changed', '{"spec":{"selector":{"matchLabels":{"app":"other"}},"template":{"metadata":{"labels":{"app":"other"}}}}}'],
  ['template labels that miss the selector', '{"spec":{"template":{"metadata":{"labels":{"app":"x"}}}}}'],
  ['template labels null', '{"spec":{"template":{"metadata":{"labels":null}}}}'],
  ['replicas -1', '{"spec":{"replicas":-1}}'],
  ['replicas as a string', '{"spec":{"replicas":"3"}}'],
  ['replicas beyond int32', '{"spec":{"replicas":2147483648}}'],
  ['replicas 0', '{"spec":{"replicas":0}}'],
  ['replicas null', '{"spec":{"replicas":null}}'],
  ['progress deadline below minReadySeconds', '{"spec":{"progressDeadlineSeconds":5,"minReadySeconds":10}}'],
  ['revisionHistoryLimit -1', '{"spec":{"revisionHistoryLimit":-1}}'],
  ['Recreate keeping rollingUpdate', '{"spec":{"strategy":{"type":"Recreate"}}}'],
  ['Recreate with $retainKeys', '{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}'],
  ['Recreate without rollingUpdate', '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}'],
  ['an unknown strategy', '{"spec":{"strategy":{"type":"BlueGreen"}}}'],
  ['both zero', '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":0}}}}'],
  ['maxUnavailable 110%', '{"spec":{"strategy":{"rollingUpdate":{"maxUnavailable":"110%"}}}}'],
  ['maxSurge not a percentage', '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":"abc"}}}}'],
  ['maxSurge negative', '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":-1}}}}'],
  ['paused as a string', '{"spec":{"paused":"yes"}}'],
  ['rollbackTo', '{"spec":{"rollbackTo":{"revision":1}}}'],
  ['status in a patch', '{"status":{"replicas":5,"readyReplicas":5}}'],
  ['labels __proto__', '{"metadata":{"labels":{"__proto__":"x"}}}'],
  ['pod template annotations', '{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-27T07:00:00Z"}}}}}'],
  ['a $patch at the root', '{"$patch":"delete"}'],
  ['an unknown directive', container(',"$patch":"merge"')],
];

/** JSON patch paths into the Deployment. */
const paths = [
  '/spec/replicas', '/spec/selector', '/spec/selector/matchLabels/app', '/spec/template/metadata/labels/app', '/spec/template/spec/containers', '/spec/template/spec/containers/0',
  '/spec/template/spec/containers/1', '/spec/template/spec/containers/-', '/spec/template/spec/containers/0/image', '/spec/template/spec/containers/0/ports/0/containerPort',
  '/spec/template/spec/containers/0/env/0', '/spec/template/spec/containers/0/resources/limits/cpu', '/spec/strategy/type', '/spec/strategy/rollingUpdate', '/spec/paused',
  '/status', '/status/replicas', '/metadata/labels/app', '/spec/template/spec/containers/0/__proto__', '/spec/template/spec/volumes/0/emptyDir',
];
const values = ['1', '-1', '"x"', 'null', '{}', '[]', '{"name":"n","image":"i"}', '{"name":"web","image":"dup"}', '"Recreate"', 'true', '70000', '"100m"', '{"polluted":"yes"}', '2147483648'];

const jsonPatch = (r: Rng): string => jsonPatchBody(r, paths, values);

const query = (r: Rng): string => r.pick(['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?fieldValidation=Warn', '?fieldManager=hostile']);

/** The Deployment as a PUT sends it, with one thing changed. */
function update(r: Rng): HostileRequest {
  const d = deployment('{ns}') as { metadata: Record<string, unknown>; spec: Record<string, unknown> & { template: { spec: { containers: Record<string, unknown>[] } } }; status?: unknown };
  const changes: [string, () => void][] = [
    ['plain', () => {}],
    ['a new image', () => { d.spec.template.spec.containers[0].image = 'nginx:1.30'; }],
    ['the selector changed', () => { d.spec.selector = { matchLabels: { app: 'h', tier: 'x' } }; (d.spec.template as unknown as { metadata: { labels: Record<string, string> } }).metadata.labels.tier = 'x'; }],
    ['no selector', () => { delete d.spec.selector; }],
    ['no template', () => { delete (d.spec as Record<string, unknown>).template; }],
    ['no containers', () => { d.spec.template.spec.containers = []; }],
    ['duplicate containers', () => { d.spec.template.spec.containers.push({ name: 'web', image: 'again' }); }],
    ['status set', () => { d.status = { replicas: 9, readyReplicas: 9, observedGeneration: 7 }; }],
    ['replicas omitted', () => { delete d.spec.replicas; }],
    ['strategy omitted', () => { delete d.spec.strategy; }],
    ['a matchExpressions selector', () => { d.spec.selector = { matchLabels: { app: 'h' }, matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }; }],
    ['an unknown field', () => { (d.spec.template.spec.containers[0] as Record<string, unknown>).imagePullPolice = 'Always'; }],
  ];
  const [label, change] = r.pick(changes);
  change();
  const rv = r.pick([',"resourceVersion":"{rv}"', ',"resourceVersion":"{rv}"', '', ',"resourceVersion":"1"']);
  const body = JSON.stringify(d).replace('"namespace":"{ns}"', `"namespace":"{ns}"${rv}`);
  return { kind: 'deployment', label: `update: ${label}${rv === '' ? ', without resourceVersion' : rv.includes('"1"') ? ', stale resourceVersion' : ''}`, method: 'PUT', path: D + query(r), contentType: 'application/json', body };
}

function apply(r: Rng): HostileRequest {
  const head = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n';
  const [label, body] = r.pick([
    ['an image', `${head}spec:\n  selector:\n    matchLabels:\n      app: h\n  template:\n    metadata:\n      labels:\n        app: h\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.29\n`],
    ['replicas', `${head}spec:\n  replicas: 4\n`],
    ['a new container', `${head}spec:\n  template:\n    spec:\n      containers:\n      - name: extra\n        image: redis:7\n`],
    ['a container without a name', `${head}spec:\n  template:\n    spec:\n      containers:\n      - image: redis:7\n`],
    ['duplicate containers', `${head}spec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n      - name: a\n        image: y\n`],
    ['a port list key', `${head}spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        ports:\n        - containerPort: 80\n          protocol: UDP\n`],
    ['a port without its key', `${head}spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        ports:\n        - name: p\n`],
    ['env', `${head}spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        env:\n        - name: A\n          value: applied\n`],
    ['the selector', `${head}spec:\n  selector:\n    matchLabels:\n      app: other\n`],
    ['replicas as a string', `${head}spec:\n  replicas: "3"\n`],
    ['status', `${head}status:\n  replicas: 3\n`],
  ] as const);
  const q = r.pick(['?fieldManager=hostile', '?fieldManager=hostile', '?fieldManager=hostile&force=true', '?fieldManager=hostile&dryRun=All', '']);
  return { kind: 'deployment', label: `apply ${label}`, method: 'PATCH', path: D + q, contentType: 'application/apply-patch+yaml', body };
}

function status(r: Rng): HostileRequest {
  const how = r.int(0, 2);
  const content = r.pick([
    '"status":{"replicas":2,"updatedReplicas":2,"readyReplicas":1,"availableReplicas":1,"observedGeneration":1}',
    '"status":{"replicas":-1}', '"status":{"readyReplicas":3,"replicas":2}', '"status":{"availableReplicas":2,"readyReplicas":1,"replicas":2}', '"status":{"collisionCount":-1}',
    '"status":{"observedGeneration":-1}', '"status":{"conditions":[{"type":"Available","status":"True","reason":"MinimumReplicasAvailable"}]}', '"status":{"conditions":[{"type":"Available"}]}',
    '"status":{"replicas":"2"}', '"status":{"terminatingReplicas":-2}', '"status":null', '"status":{"__proto__":{"polluted":"yes"},"replicas":1}',
  ]);
  if (how === 0) {
    const meta = r.pick([',"resourceVersion":"{rv}"', ',"resourceVersion":"{rv}","labels":{"app":"h","s":"1"}', '', ',"resourceVersion":"{rv}","annotations":{"a":"b"}']);
    const spec = r.chance(0.3) ? ',"spec":{"replicas":9,"selector":{"matchLabels":{"app":"h"}},"template":{"metadata":{"labels":{"app":"h"}},"spec":{"containers":[{"name":"c","image":"c"}]}}}' : '';
    return { kind: 'deployment', label: `status update ${content.slice(0, 50)}${meta === '' ? ', without resourceVersion' : ''}${spec === '' ? '' : ', spec changed'}`, method: 'PUT', path: `${D}/status${query(r)}`, contentType: 'application/json', body: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"${meta}}${spec},${content}}` };
  }
  if (how === 1) return { kind: 'deployment', label: `status merge patch ${content.slice(0, 50)}`, method: 'PATCH', path: `${D}/status${query(r)}`, contentType: r.pick(['application/merge-patch+json', 'application/strategic-merge-patch+json']), body: `{${content}}` };
  return { kind: 'deployment', label: 'status apply', method: 'PATCH', path: `${D}/status?fieldManager=${r.pick(['ctrl', 'ctrl&force=true'])}`, contentType: 'application/apply-patch+yaml', body: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nstatus:\n  replicas: ${r.pick(['1', '-1', '"x"'])}\n` };
}

function scale(r: Rng): HostileRequest {
  const how = r.int(0, 3);
  if (how === 0) return { kind: 'deployment', label: 'scale get', method: 'GET', path: `${D}/scale` };
  if (how === 1) {
    const replicas = r.pick(['3', '0', '-1', '"3"', 'null', '2147483648', '1.5']);
    const [label, meta] = r.pick([['', ',"resourceVersion":"{rv}"'], ['without resourceVersion', ''], ['stale resourceVersion', ',"resourceVersion":"1"'], ['name mismatch', ',"name":"other"'], ['selector in status', ',"resourceVersion":"{rv}"']] as const);
    const kind = r.pick(['"apiVersion":"autoscaling/v1","kind":"Scale"', '"apiVersion":"autoscaling/v1","kind":"Scale"', '"apiVersion":"apps/v1","kind":"Deployment"', '']);
    const body = `{${kind}${kind === '' ? '' : ','}"metadata":{"name":"d","namespace":"{ns}"${meta}},"spec":{"replicas":${replicas}}${label === 'selector in status' ? ',"status":{"replicas":1,"selector":"x=y"}' : ''}}`;
    return { kind: 'deployment', label: `scale update ${replicas}${label === '' ? '' : `, ${label}`}${kind.includes('Scale') ? '' : `, ${kind || 'no type'}`}`, method: 'PUT', path: `${D}/scale${query(r)}`, contentType: 'application/json', body };
  }
  if (how === 2) {
    const body = r.pick(['{"spec":{"replicas":4}}', '{"spec":{"replicas":-2}}', '{"spec":{"replicas":"x"}}', '{"spec":null}', '{"metadata":{"labels":{"x":"y"}}}', '{"status":{"replicas":7}}']);
    return { kind: 'deployment', label: `scale merge patch ${body}`, method: 'PATCH', path: `${D}/scale${query(r)}`, contentType: r.pick(['application/merge-patch+json', 'application/strategic-merge-patch+json']), body };
  }
  return { kind: 'deployment', label: 'scale json patch', method: 'PATCH', path: `${D}/scale${query(r)}`, contentType: 'application/json-patch+json', body: r.pick(['[{"op":"replace","path":"/spec/replicas","value":5}]', '[{"op":"remove","path":"/spec/replicas"}]', '[{"op":"test","path":"/status/replicas","value":0}]']) };
}

/** One hostile request against the case's Deployment. */
export function deploymentRequest(r: Rng): HostileRequest {
  const g = r.int(0, 11);
  const patch = patchRequest(r, g, 'deployment', D, deploymentPatches, query, jsonPatch);
  if (patch !== undefined) return patch;
  if (g === 7) return update(r);
  if (g === 8) return apply(r);
  if (g === 9) return status(r);
  return scale(r);
}
