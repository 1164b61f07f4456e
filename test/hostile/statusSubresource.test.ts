// Writes through a custom resource's status subresource, validated as the status strategy validates them
// (apiextensions-apiserver registry/customresource: statusStrategy.ValidateUpdate, then
// customResourceValidator.ValidateStatusUpdate): only `status` is checked against the schema, by a validator
// whose root is the status schema, so a message names `replicas`, not `status.replicas` (the field stays
// `status.replicas`), and a status that is not an object is " in body must be of type object"; the scale
// subresource's spec replicas are not checked, the status replicas are; CEL rules see the whole object
// (kube-apiserver 1.34.4, the hostile differential suite's status family, seed 20270401, cases 24 and 38).
import { expect } from 'chai';
import { createWidgets, describeOnBothServers, type Send } from './sender.js';

const G = 'statusval.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;

interface Obj { metadata: { resourceVersion: string }; spec?: Record<string, unknown>; status?: Record<string, unknown> }

async function run(s: Send): Promise<void> {
  await createWidgets(s, G, {
    type: 'object',
    properties: { replicas: { type: 'integer' }, size: { type: 'integer' } },
    'x-kubernetes-validations': [{ rule: 'self.size <= 100', message: 'size too big' }],
  }, {
    statusSchema: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' }, phase: { type: 'string', enum: ['Ready', 'Failed'] }, selector: { type: 'string' },
        nested: { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } },
      },
    },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
  });
  const created = await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 's1' }, spec: { replicas: 1, size: 3 } }));
  expect(created.status, created.text).to.equal(201);
  const c = JSON.parse(created.text) as Obj;
  // (A status update without a resourceVersion is refused: it must be specified for an update.)
  const rv = async (): Promise<string> => (JSON.parse((await s('GET', `${W}/s1`)).text) as Obj).metadata.resourceVersion;
  const put = async (status: unknown, spec: unknown = c.spec): Promise<{ status: number; text: string; message: string }> =>
    s('PUT', `${W}/s1/status`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 's1', resourceVersion: await rv() }, spec, status }));
  const merge = (body: string): Promise<{ status: number; text: string; message: string }> => s('PATCH', `${W}/s1/status`, body, 'application/merge-patch+json');
  const causes = (text: string): string[] => ((JSON.parse(text) as { details?: { causes?: { field: string; message: string }[] } }).details?.causes ?? []).map((x) => `${x.field}: ${x.message}`).sort();

  // A type error inside status: the message's name is relative to status.
  const wrongType = await put({ replicas: 'five' });
  expect(wrongType.status, wrongType.text).to.equal(422);
  expect(causes(wrongType.text), wrongType.text).to.include('status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"');
  const nested = await merge('{"status":{"nested":{"n":9}}}');
  expect(nested.status, nested.text).to.equal(422);
  expect(nested.message).to.equal(`Widget.${G} "s1" is invalid: status.nested.n: Invalid value: 9: nested.n in body should be less than or equal to 5`);
  const enumed = await merge('{"status":{"phase":"Meh"}}');
  // (An unsupported value blocks the CEL rules, which run over the whole object.)
  expect(enumed.message).to.equal(`Widget.${G} "s1" is invalid: [status.phase: Unsupported value: "Meh": supported values: "Ready", "Failed", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`);
  // A status that is not an object: the validator's root, named by nothing.
  const list = await put([1]);
  expect(list.status, list.text).to.equal(422);
  expect(causes(list.text), list.text).to.include('status: Invalid value: "array":  in body must be of type object: "array"');
  // A float where the status replicas go: the schema's message names it from status.
  const float = await merge('{"status":{"replicas":1.5}}');
  expect(float.status, float.text).to.equal(422);
  expect(causes(float.text), float.text).to.include('status.replicas: Invalid value: "number": replicas in body must be of type integer: "number"');
  // The spec sent with a status update is ignored, whatever it holds; the status is taken.
  const fine = await put({ replicas: 2, phase: 'Ready' }, { replicas: 'many', size: 'x' });
  expect(fine.status, fine.text).to.equal(200);
  const f = JSON.parse(fine.text) as Obj;
  expect(f.spec).to.deep.equal({ replicas: 1, size: 3 });
  expect(f.status).to.deep.equal({ replicas: 2, phase: 'Ready' });
  // Written as another kind (which the strategy turns back), the body is neither pruned nor defaulted: its
  // null status stays, and is no object (hostile seed 20270458). As this kind, the null is pruned.
  const otherKind = await s('PUT', `${W}/s1/status`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Gadget', metadata: { name: 's1', resourceVersion: await rv() }, status: null }));
  expect(otherKind.status, otherKind.text).to.equal(422);
  expect(causes(otherKind.text), otherKind.text).to.include('status: Invalid value: "null":  in body must be of type object: "null"');
  expect(otherKind.message).to.match(/^Gadget\./);
  const sameKind = await s('PUT', `${W}/s1/status`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 's1', resourceVersion: await rv() }, status: null }));
  expect(sameKind.status, sameKind.text).to.equal(200);
  // No status at all removes it, and is valid.
  const none = await s('PUT', `${W}/s1/status`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 's1', resourceVersion: await rv() }, spec: c.spec }));
  expect(none.status, none.text).to.equal(200);
  expect((JSON.parse(none.text) as Obj).status).to.equal(undefined);
  // A status update still runs the CEL rules over the whole object (here they pass), and the main
  // resource's write still validates the spec with the whole schema.
  const spec = await s('PATCH', `${W}/s1`, '{"spec":{"size":"x"}}', 'application/merge-patch+json');
  expect(spec.status, spec.text).to.equal(422);
  expect(spec.message).to.include('spec.size in body must be of type integer: "string"');
}

describeOnBothServers('hostile input: writes through the status subresource validated as the status strategy does, kubekit and the real kube-apiserver', run);
