// Answers in protobuf (`Accept: application/vnd.kubernetes.protobuf`), as client-go configured for protobuf
// only asks for them (kube-controller-manager, most controllers): objects, lists, errors, deletes, watch
// streams, PartialObjectMetadata, and the 406s of what has no protobuf form (a Table, a custom resource,
// `/version`).
//
// Each answer is checked two ways: on each server, its bytes are kubekit's encoding of the same server's
// JSON answer to the same request (on the reference, that checks kubekit's encoder byte for byte against
// kube-apiserver's); and kubekit's answers, decoded to JSON with uid, resourceVersion and times replaced,
// equal the reference's. Answers without such values (errors) are compared byte for byte.
import { expect } from 'chai';
import { decodeProtobuf, decodeProtobufMessage } from '../../packages/apiserver/src/internal/protobuf.js';
import { encodeProtobuf, protobufMessageOf } from '../../packages/apiserver/src/internal/protobufEncode.js';
import { answerBytes, createWidgets, describeOnBothServers, type Answer } from './sender.js';

const PB = 'application/vnd.kubernetes.protobuf';
const NS = '/api/v1/namespaces/default';
const label = 'protobuf-answers';

const objects: [string, Record<string, unknown>][] = [
  [`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { suite: label, b: '2', a: '1' }, annotations: { 'z.example.com/x': 'é', a: '' } }, data: { z: '1', a: '', 'k.y': 'line\nline' }, binaryData: { bin: 'AAEC/w==' } }],
  [`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec', labels: { suite: label } }, type: 'Opaque', data: { b: '/wD+', a: '' }, immutable: false }],
  [`${NS}/pods`, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod', labels: { suite: label } },
    spec: {
      containers: [{
        name: 'c', image: 'nginx', ports: [{ containerPort: 80, name: 'http' }], env: [{ name: 'A', value: 'b' }],
        resources: { requests: { cpu: '100m', memory: '1Gi' }, limits: { cpu: '0.5', memory: '2000Mi' } },
        readinessProbe: { httpGet: { port: 'http', path: '/' } }, livenessProbe: { tcpSocket: { port: 8080 } },
      }],
      terminationGracePeriodSeconds: 0, activeDeadlineSeconds: 5,
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: -3 }],
      securityContext: { supplementalGroups: [1, 2, 3] },
    },
  }],
  ['/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dep', labels: { suite: label } },
    spec: {
      replicas: 0, selector: { matchLabels: { app: 'x' } }, strategy: { rollingUpdate: { maxSurge: '50%', maxUnavailable: 2 } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  }],
  ['/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'role', labels: { suite: label } },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
  }],
];

/** The envelope's TypeMeta and raw message. */
function envelopeParts(bytes: Uint8Array): { apiVersion: string; kind: string; raw: Uint8Array } {
  expect([...bytes.subarray(0, 4)]).to.deep.equal([0x6b, 0x38, 0x73, 0x00]);
  const typeMeta = field(bytes.subarray(4), 1);
  const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');
  return { apiVersion: text(field(typeMeta, 1)), kind: text(field(typeMeta, 2)), raw: field(bytes.subarray(4), 2) };
}

/** The bytes of length-delimited field `num` of a message (the first). */
function field(message: Uint8Array, num: number): Uint8Array {
  let p = 0;
  const varint = (): number => {
    let r = 0;
    for (let s = 0; s < 64; s += 7) {
      const b = message[p++];
      r += (b & 0x7f) * 2 ** s;
      if ((b & 0x80) === 0) return r;
    }
    throw new Error('bad varint');
  };
  while (p < message.length) {
    const tag = varint();
    if ((tag & 7) === 0) {
      varint();
      continue;
    }
    if ((tag & 7) !== 2) throw new Error(`unexpected wire type ${tag & 7}`);
    const len = varint();
    if (Math.floor(tag / 8) === num) return message.subarray(p, p + len);
    p += len;
  }
  return new Uint8Array();
}

/** A protobuf answer as JSON, decoded by kubekit's decoder (decodeProtobuf where it decodes the kind). */
function decode(bytes: Uint8Array): Record<string, unknown> {
  const { apiVersion, kind, raw } = envelopeParts(bytes);
  if (kind === 'ConfigMap' || kind === 'Secret') return decodeProtobuf(bytes) as unknown as Record<string, unknown>;
  const message = protobufMessageOf(apiVersion, kind);
  if (message === undefined) throw new Error(`no message for ${apiVersion}/${kind}`);
  return { apiVersion, kind, ...decodeProtobufMessage(raw, message) };
}

/** The watch events of a protobuf stream: 4-byte lengths, then WatchEvents holding envelopes. */
function watchEvents(bytes: Buffer): { type: string; object: Record<string, unknown> }[] {
  const out: { type: string; object: Record<string, unknown> }[] = [];
  let p = 0;
  while (p < bytes.length) {
    const n = bytes.readUInt32BE(p);
    const frame = bytes.subarray(p + 4, p + 4 + n);
    expect(frame.length).to.equal(n);
    out.push({ type: Buffer.from(field(frame, 1)).toString('utf8'), object: decode(field(field(frame, 2), 1)) });
    p += 4 + n;
  }
  return out;
}

/** `v` with what differs between servers (uids, resourceVersions, times) replaced. */
function normalized(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => normalized(x));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalized(x, k)]));
  if (['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'time'].includes(key)) return `<${key}>`;
  return v;
}

/** One step's answer: status, content type, bytes, and what they decode to. */
interface Step {
  status: number;
  contentType: string;
  /** The bytes, where they are the same on every server (hex). */
  bytes?: string;
  json?: unknown;
}

const kubekitSteps = new Map<string, Step>();

describeOnBothServers('protobuf answers', async (s, backend) => {
  const steps = new Map<string, Step>();
  /** Records a protobuf answer; its bytes must be kubekit's encoding of `json` (the same server's JSON answer) when given. */
  const record = (name: string, a: Answer, json?: Record<string, unknown>, exact = false): Record<string, unknown> | undefined => {
    const { bytes, contentType } = answerBytes(a);
    let decoded: Record<string, unknown> | undefined;
    if (contentType.startsWith(PB) && !contentType.includes('stream=watch')) {
      decoded = decode(bytes);
      if (json !== undefined) expect(encodeProtobuf(json)?.toString('hex'), `${name}: kubekit's encoding of the JSON answer`).to.equal(bytes.toString('hex'));
    }
    steps.set(name, { status: a.status, contentType, bytes: exact ? bytes.toString('hex') : undefined, json: decoded === undefined ? a.text : normalized(decoded) });
    return decoded;
  };
  const both = async (name: string, method: string, path: string, accept = PB, body?: string): Promise<Answer> => {
    // A list's resourceVersion is the store's latest: on the reference a write elsewhere (a lease renewed)
    // can come between the two answers, which are asked for again then (at most 5 times).
    for (let attempt = 1; ; attempt++) {
      const a = await s(method, path, body, 'application/json', accept);
      const j = a.status < 300 && method === 'GET' ? JSON.parse((await s(method, path, undefined, undefined, accept.replace(PB, 'application/json'))).text) as Record<string, unknown> : undefined;
      const listVersion = (o: Record<string, unknown> | undefined): unknown => (Array.isArray(o?.items) ? (o.metadata as { resourceVersion?: string } | undefined)?.resourceVersion : undefined);
      const { bytes, contentType } = answerBytes(a);
      const moved = j !== undefined && contentType.startsWith(PB) && listVersion(j) !== listVersion(decode(bytes));
      if (moved && attempt < 5) continue;
      record(name, a, j);
      return a;
    }
  };

  for (const [path, obj] of objects) {
    const name = (obj.metadata as { name: string }).name;
    const created = await s('POST', path, JSON.stringify(obj), 'application/json', PB);
    expect(created.status, created.text).to.equal(201);
    record(`create ${name}`, created);
    await both(`get ${name}`, 'GET', `${path}/${name}`);
    await both(`metadata of ${name}`, 'GET', `${path}/${name}`, `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`);
  }
  await both('list', 'GET', `${NS}/configmaps?labelSelector=suite%3D${label}`);
  await both('list of pods', 'GET', `${NS}/pods?labelSelector=suite%3D${label}`);
  await both('metadata list', 'GET', `${NS}/secrets?labelSelector=suite%3D${label}`, `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`);

  // Errors are Status messages in protobuf, the same bytes on both servers.
  record('404', await s('GET', `${NS}/configmaps/missing`, undefined, undefined, PB), undefined, true);
  record('422', await s('POST', `${NS}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'BAD_' }, data: { 'a b': 'x' } }), 'application/json', PB), undefined, true);
  record('409', await s('POST', `${NS}/configmaps`, JSON.stringify(objects[0][1]), 'application/json', PB), undefined, true);
  // A Table has no protobuf form: the handler's 406, as indented JSON (an error cannot be a Table either).
  record('table', await s('GET', `${NS}/configmaps`, undefined, undefined, `${PB};as=Table;g=meta.k8s.io;v=v1`), undefined, true);
  // /version's route produces JSON only: go-restful's 406, written in protobuf.
  record('version', await s('GET', '/version', undefined, undefined, PB), undefined, true);

  // A watch stream: frames of WatchEvents.
  const watch = await s('GET', `${NS}/configmaps?watch=1&timeoutSeconds=1&labelSelector=suite%3D${label}`, undefined, undefined, `${PB};stream=watch`);
  const { bytes: watchBytes, contentType: watchType } = answerBytes(watch);
  const events = watchEvents(watchBytes);
  expect(events.map((e) => e.type)).to.deep.equal(['ADDED']);
  steps.set('watch', { status: watch.status, contentType: watchType, json: normalized(events) });
  const metaWatch = await s('GET', `${NS}/secrets?watch=1&timeoutSeconds=1&labelSelector=suite%3D${label}`, undefined, undefined, `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1;stream=watch`);
  steps.set('metadata watch', { status: metaWatch.status, contentType: answerBytes(metaWatch).contentType, json: normalized(watchEvents(answerBytes(metaWatch).bytes)) });

  // Deletes answer the object, or a Status for a ConfigMap.
  for (const [path, obj] of objects) {
    const name = (obj.metadata as { name: string }).name;
    record(`delete ${name}`, await s('DELETE', `${path}/${name}`, undefined, undefined, PB));
  }

  // A custom resource has no protobuf form: refused before anything is done, in a protobuf Status; its
  // metadata can be had in protobuf.
  const W = await createWidgets(s, 'protobuf.example.com', { type: 'object' });
  const widget = JSON.stringify({ apiVersion: 'protobuf.example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
  record('create widget', await s('POST', W, widget, 'application/json', PB), undefined, true);
  expect((await s('GET', `${W}/w`)).status).to.equal(404);
  expect((await s('POST', W, widget)).status).to.equal(201);
  record('get widget', await s('GET', `${W}/w`, undefined, undefined, PB), undefined, true);
  await both('widget metadata', 'GET', `${W}/w`, `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`);
  record('widget table', await s('GET', W, undefined, undefined, `${PB};as=Table;g=meta.k8s.io;v=v1`), undefined, true);

  if (backend === 'kubekit') {
    for (const [k, v] of steps) kubekitSteps.set(k, v);
  } else if (kubekitSteps.size > 0) {
    // kubekit's answers are the reference's.
    const names = [...steps.keys()];
    expect([...kubekitSteps.keys()]).to.deep.equal(names);
    for (const name of names) expect(kubekitSteps.get(name), name).to.deep.equal(steps.get(name));
  }
});
