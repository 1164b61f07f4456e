// A PUT to a built-in kind's /scale is decoded into autoscaling/v1 Scale (kube-apiserver 1.34.4): another
// type is the scheme's 400 (a kind it has does not convert to a Scale; one it lacks is not registered), a
// wrong JSON type, a fraction, an integral float or an int32 overflow is encoding/json's 400, and an
// unknown field under Strict is the Scale's strict decoding error. kubekit validated whatever it read
// and scaled a Deployment to 2147483648 or to "3" (found by the hostile suite's Deployment family).
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

async function run(s: Send): Promise<void> {
  const ok = (a: Answer): void => {
    expect(a.status, a.text).to.be.oneOf([200, 201]);
  };
  ok(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bscale' } })));
  const template = { metadata: { labels: { app: 's' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
  ok(await s('POST', '/apis/apps/v1/namespaces/bscale/deployments', JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1, selector: { matchLabels: { app: 's' } }, template } })));
  const path = '/apis/apps/v1/namespaces/bscale/deployments/d/scale';
  const meta = '"metadata":{"name":"d","namespace":"bscale"}';
  const scale = '"apiVersion":"autoscaling/v1","kind":"Scale"';
  const cannot = (kind: string, version: string, why: string): string => `${kind} in version "${version}" cannot be handled as a Scale: ${why}`;
  for (const [body, query, message] of [
    [`{${scale},${meta},"spec":{"replicas":"3"}}`, '', cannot('Scale', 'v1', 'json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32')],
    [`{${scale},${meta},"spec":{"replicas":1.5}}`, '', cannot('Scale', 'v1', 'json: cannot unmarshal number 1.5 into Go struct field ScaleSpec.spec.replicas of type int32')],
    [`{${scale},${meta},"spec":{"replicas":2.0}}`, '', cannot('Scale', 'v1', 'json: cannot unmarshal number 2.0 into Go struct field ScaleSpec.spec.replicas of type int32')],
    [`{${scale},${meta},"spec":{"replicas":2147483648}}`, '', cannot('Scale', 'v1', 'json: cannot unmarshal number 2147483648 into Go struct field ScaleSpec.spec.replicas of type int32')],
    [`{${scale},${meta},"spec":{"replicas":3},"status":{"replicas":"x"}}`, '', cannot('Scale', 'v1', 'json: cannot unmarshal string into Go struct field ScaleStatus.status.replicas of type int32')],
    [`{"apiVersion":"apps/v1","kind":"Deployment",${meta},"spec":{"replicas":3}}`, '', cannot('Deployment', 'v1', 'converting (v1.Deployment) to (autoscaling.Scale): unknown conversion')],
    [`{"apiVersion":"apps/v1","kind":"Deployment",${meta},"spec":{"replicas":"3"}}`, '', cannot('Deployment', 'v1', 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32')],
    [`{"apiVersion":"autoscaling/v1","kind":"Deployment",${meta},"spec":{"replicas":3}}`, '', cannot('Deployment', 'v1', 'no kind "Deployment" is registered for version "autoscaling/v1" in scheme "pkg/runtime/scheme.go:110"')],
    [`{"apiVersion":"autoscaling/v2","kind":"Scale",${meta},"spec":{"replicas":3}}`, '', cannot('Scale', 'v2', 'no kind "Scale" is registered for version "autoscaling/v2" in scheme "pkg/runtime/scheme.go:110"')],
    [`{${scale},${meta},"spec":{"replicas":3},"extra":1}`, '?fieldValidation=Strict', cannot('Scale', 'v1', 'strict decoding error: unknown field "extra"')],
  ] as const) {
    const a = await s('PUT', path + query, body);
    expect(a.status, `${body}: ${a.text}`).to.equal(400);
    expect(a.message, body).to.equal(message);
  }
  // A patch's result is decoded as a Scale too: a merge or JSON patch's quoting the patched Scale, a strategic
  // merge patch's (converted from its map) quoting the patch as Go prints a map.
  const patch = (body: string, type: string, query = ''): Promise<Answer> => s('PATCH', path + query, body, `application/${type}`);
  const merged = await patch('{"spec":{"replicas":"x"}}', 'merge-patch+json');
  expect(merged.status, merged.text).to.equal(422);
  expect(merged.message).to.match(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"autoscaling\/v1\\",\\"kind\\":\\"Scale\\",.*\\"spec\\":\{\\"replicas\\":\\"x\\"\},.*": json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32$/);
  for (const [body, query, message] of [
    ['{"spec":{"replicas":"x"}}', '', ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:x]]": unrecognized type: int32'],
    ['{"spec":{"replicas":3},"extra":1}', '?fieldValidation=Strict', ' "" is invalid: patch: Invalid value: "map[extra:1 spec:map[replicas:3]]": strict decoding error: unknown field "extra"'],
  ] as const) {
    const a = await patch(body, 'strategic-merge-patch+json', query);
    expect([a.status, a.message], body).to.deep.equal([422, message]);
  }
  // Untyped, it is a Scale; a null replicas is none (0).
  const untyped = await s('PUT', path, `{${meta},"spec":{"replicas":3}}`);
  expect(untyped.status, untyped.text).to.equal(200);
  const none = await s('PUT', path, `{${scale},${meta},"spec":{"replicas":null}}`);
  expect(none.status, none.text).to.equal(200);
  expect((JSON.parse(none.text) as { spec: unknown }).spec).to.deep.equal({});
  const unknown = await s('PUT', `${path}?fieldValidation=Warn`, `{${scale},${meta},"spec":{"replicas":2},"extra":1}`);
  expect(unknown.status, unknown.text).to.equal(200);
}

describeOnBothServers('the body of a PUT to a built-in kind\'s scale subresource, and a patch\'s result, decoded as autoscaling/v1 Scale', run);
