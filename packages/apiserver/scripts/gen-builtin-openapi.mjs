#!/usr/bin/env node
// Regenerates fixtures/builtin-openapi.json: the OpenAPI v3 component schemas of the built-in kinds the
// embedded server serves, as a reference kube-apiserver publishes them in /openapi/v3/<group-version>
// (facts of the API, not code). Kept: every schema reachable from the paths of the served resources
// (the kind, its list, Scale, the meta/v1 types they use), descriptions included (`kubectl explain` prints
// them; 152 kB gzipped in 1.34.4); `--strip-descriptions` drops them.
// And fixtures/builtin-table-columns.json: the Table column definitions of each served resource (what
// `kubectl get` prints as headers), as the reference answers a list with `Accept: ...;as=Table`.
//
// Usage (from the repository root):
//   node --import tsx --conditions=kubekit-source packages/apiserver/scripts/gen-builtin-openapi.mjs [--strip-descriptions]
// starts a reference server (packages/envtest; KUBEKIT_ENVTEST_DIR reuses a built binary), or reads a
// running one when KUBEKIT_REFERENCE_URL, KUBEKIT_REFERENCE_TOKEN and KUBEKIT_REFERENCE_CA (a PEM file) are set.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceApiServer } from '@kubekit/envtest';
import { referenceGetter } from './reference-get.mjs';
import { accessReviewTypes } from '../src/accessReviews.ts';
import { admissionRegistrationTypes } from '../src/admissionRegistration.ts';
import { apiServiceResourceTypes } from '../src/apiServiceKinds.ts';
import { validatingAdmissionPolicyTypes } from '../src/validatingAdmissionPolicy.ts';
import { builtinResourceTypes } from '../src/builtinKinds.ts';
import { serviceResourceTypes } from '../src/builtinServiceKinds.ts';
import { workloadResourceTypes } from '../src/builtinWorkloads.ts';
import { legacyWorkloadResourceTypes } from '../src/legacyWorkloadKinds.ts';
import { policyResourceTypes } from '../src/policyKinds.ts';
import { autoscalingResourceTypes } from '../src/autoscalingKinds.ts';
import { persistentVolumeResourceTypes } from '../src/persistentVolumeKinds.ts';
import { storageResourceTypes } from '../src/storageKinds.ts';
import { csiResourceTypes } from '../src/csiKinds.ts';
import { draResourceTypes } from '../src/draKinds.ts';
import { flowControlResourceTypes } from '../src/flowControlKinds.ts';
import { networkingResourceTypes } from '../src/networkingKinds.ts';
import { serviceCIDRResourceTypes } from '../src/serviceCIDRKinds.ts';
import { nodeResourceTypes } from '../src/nodeKinds.ts';
import { certificateResourceTypes } from '../src/certificateKinds.ts';
import { eventResourceTypes } from '../src/eventKinds.ts';
import { endpointResourceTypes } from '../src/endpointKinds.ts';
import { schedulingResourceTypes } from '../src/schedulingKinds.ts';
import { runtimeClassResourceTypes } from '../src/runtimeClassKinds.ts';
import { resourceQuotaResourceTypes } from '../src/resourceQuotaKinds.ts';
import { limitRangeResourceTypes } from '../src/limitRangeKinds.ts';
import { ComponentStatusType } from '../src/componentStatuses.ts';

const keepDescriptions = !process.argv.includes('--strip-descriptions');
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'builtin-openapi.json');
const served = [...builtinResourceTypes(), ...eventResourceTypes(), ...nodeResourceTypes(), ...certificateResourceTypes(), ...endpointResourceTypes(), ...resourceQuotaResourceTypes(), ...limitRangeResourceTypes(), ...serviceResourceTypes(), ...persistentVolumeResourceTypes(), ...storageResourceTypes(), ...csiResourceTypes(), ...draResourceTypes(), ...flowControlResourceTypes(), ...workloadResourceTypes(), ...legacyWorkloadResourceTypes(), ...autoscalingResourceTypes(), ...policyResourceTypes(), ...networkingResourceTypes(), ...serviceCIDRResourceTypes(), ...schedulingResourceTypes(), ...runtimeClassResourceTypes(), ...admissionRegistrationTypes(), ...validatingAdmissionPolicyTypes(), ...apiServiceResourceTypes(), ...accessReviewTypes(), new ComponentStatusType()].map((t) => t.names);

let server;
let base = process.env.KUBEKIT_REFERENCE_URL;
let token = process.env.KUBEKIT_REFERENCE_TOKEN;
let ca = process.env.KUBEKIT_REFERENCE_CA === undefined ? undefined : readFileSync(process.env.KUBEKIT_REFERENCE_CA, 'utf8');
if (base === undefined) {
  server = await startReferenceApiServer();
  ({ url: base, token, ca } = server);
}

const get = referenceGetter(base, token, ca);

function refsOf(value, into) {
  if (Array.isArray(value)) for (const v of value) refsOf(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.add(v.replace('#/components/schemas/', ''));
      else refsOf(v, into);
    }
  }
  return into;
}

function stripDescriptions(value) {
  if (Array.isArray(value)) return value.map(stripDescriptions);
  if (value === null || typeof value !== 'object') return value;
  const copy = {};
  for (const [k, v] of Object.entries(value)) {
    // `properties` maps field names to schemas: a field may be called `description`.
    if (k === 'properties') copy[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, stripDescriptions(s)]));
    else if (k !== 'description') copy[k] = stripDescriptions(v);
  }
  return copy;
}

try {
  const index = await get('/openapi/v3');
  const schemas = {};
  const kinds = {};
  const groupVersions = [...new Set(served.map((n) => (n.group === '' ? `api/${n.version}` : `apis/${n.group}/${n.version}`)))].sort();
  for (const gv of groupVersions) {
    const entry = index.paths[gv];
    if (entry === undefined) throw new Error(`the reference serves no /openapi/v3/${gv}`);
    const doc = await get(entry.serverRelativeURL);
    const resources = served.filter((n) => (n.group === '' ? `api/${n.version}` : `apis/${n.group}/${n.version}`) === gv);
    const roots = new Set();
    for (const [path, item] of Object.entries(doc.paths)) {
      const m = /^\/apis?\/(?:[^/]+\/)?[^/]+(?:\/namespaces\/\{namespace\})?\/([^/{]+)(?:\/\{name\}(?:\/(status|scale|eviction))?)?$/.exec(path);
      if (m === null || !resources.some((n) => n.resource === m[1])) continue;
      refsOf(item, roots);
    }
    for (const n of resources) {
      const name = Object.keys(doc.components.schemas).find((s) => (doc.components.schemas[s]['x-kubernetes-group-version-kind'] ?? []).some((g) => g.group === n.group && g.version === n.version && g.kind === n.kind));
      if (name === undefined) throw new Error(`no schema of ${gv} ${n.kind} in the reference document`);
      kinds[`${n.group}/${n.version}/${n.kind}`] = name;
      roots.add(name);
    }
    const queue = [...roots];
    const seen = new Set();
    while (queue.length > 0) {
      const name = queue.pop();
      if (seen.has(name)) continue;
      seen.add(name);
      const schema = doc.components.schemas[name];
      if (schema === undefined) throw new Error(`${gv}: dangling reference to ${name}`);
      schemas[name] = keepDescriptions ? schema : stripDescriptions(schema);
      for (const r of refsOf(schema, new Set())) queue.push(r);
    }
  }
  const sorted = Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]]));
  const sortedKinds = Object.fromEntries(Object.keys(kinds).sort().map((k) => [k, kinds[k]]));
  const fixture = { source: `kube-apiserver ${server?.version ?? '(running)'} /openapi/v3${keepDescriptions ? '' : ', descriptions removed'}`, kinds: sortedKinds, schemas: sorted };
  writeFileSync(out, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`${out}: ${Object.keys(sortedKinds).length} kinds, ${Object.keys(sorted).length} schemas, ${Buffer.byteLength(JSON.stringify(fixture))} bytes`);

  const columns = {};
  // Reviews are only created: they have no list to ask for its Table.
  for (const n of [...served].filter((s) => s.verbs.includes('list')).sort((a, b) => `${a.group}/${a.resource}`.localeCompare(`${b.group}/${b.resource}`))) {
    const table = await get(`${n.group === '' ? '/api' : `/apis/${n.group}`}/${n.version}/${n.resource}?limit=1`, 'application/json;as=Table;v=v1;g=meta.k8s.io');
    columns[`${n.group}/${n.version}/${n.resource}`] = table.columnDefinitions.map(({ name, type, format, description, priority }) => ({ name, type, format, description, priority }));
  }
  const columnsOut = join(dirname(out), 'builtin-table-columns.json');
  writeFileSync(columnsOut, `${JSON.stringify({ source: `kube-apiserver ${server?.version ?? '(running)'} Table column definitions`, columns }, null, 1)}\n`);
  console.log(`${columnsOut}: ${Object.keys(columns).length} resources`);
} finally {
  await server?.close();
}
