// Server-side field validation of custom resources, with the bodies and expectations of
// test/integration/apiserver/field_validation_test.go (testFieldValidationPutCRD, crdInvalidBody,
// crdInvalidBodyYAML).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { jsonDuplicateFields, yamlDuplicateFields } from '../src/internal/fieldValidation.js';
import { createCRD, start, type Client } from './internal/client.js';

const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
          knownField1: { type: 'string' },
          ports: {
            type: 'array', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'], 'x-kubernetes-list-type': 'map',
            items: {
              type: 'object', required: ['containerPort', 'protocol'],
              properties: { containerPort: { format: 'int32', type: 'integer' }, hostIP: { type: 'string' }, hostPort: { format: 'int32', type: 'integer' }, name: { type: 'string' }, protocol: { type: 'string' } },
            },
          },
        },
      },
    },
  },
};

const crdInvalidBody = (name: string, rv: string): string => `
{
	"apiVersion": "schema.example.com/v1",
	"kind": "Schema",
	"metadata": {
		"name": "${name}",
		"resourceVersion": "${rv}"
	},
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"knownField1": "val1",
		"knownField1": "val2",
			"ports": [{
				"name": "portName",
				"containerPort": 8080,
				"protocol": "TCP",
				"hostPort": 8081,
				"hostPort": 8082,
				"unknownNested": "val"
			}]
	}
}`;

const crdInvalidBodyYAML = (name: string, rv: string): string => `
apiVersion: "schema.example.com/v1"
kind: "Schema"
metadata:
  name: "${name}"
  resourceVersion: "${rv}"
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  knownField1: val1
  knownField1: val2
  ports:
  - name: portName
    containerPort: 8080
    protocol: TCP
    hostPort: 8081
    hostPort: 8082
    unknownNested: val`;

// Duplicates by their full path, as kube-apiserver 1.34 names them (testFieldValidationPatchCRD's
// "crd-post-strict-validation" in field_validation_test.go).
const jsonProblems = [
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.knownField1"',
  'duplicate field "spec.ports[0].hostPort"',
  'unknown field "spec.ports[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];
const yamlProblems = [
  'line 10: key "unknownDupe" already set in map',
  'line 12: key "knownField1" already set in map',
  'line 18: key "hostPort" already set in map',
  'unknown field "spec.ports[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];

function warnings(header: string | null): string[] {
  if (header === null) return [];
  return [...header.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]) as string);
}

describe('jsonDuplicateFields', () => {
  it('finds duplicate keys at every depth, in document order, by their full path', () => {
    expect(jsonDuplicateFields('{"a":1,"b":{"c":[{"d":1,"d":2}],"c":3},"a":"x\\"y","e\\u0041":1,"eA":2}')).to.deep.equal([
      'duplicate field "b.c[0].d"', 'duplicate field "b.c"', 'duplicate field "a"', 'duplicate field "eA"',
    ]);
    expect(jsonDuplicateFields('{"l":[{"a":1},[{"x":1,"x":2}],{"a":1,"a":2}],"m":{"n":{"o":1,"o":2}}}')).to.deep.equal([
      'duplicate field "l[1][0].x"', 'duplicate field "l[2].a"', 'duplicate field "m.n.o"',
    ]);
    expect(jsonDuplicateFields('{"a":[1,{"a":2}],"b":"{\\"a\\":1}"}')).to.deep.equal([]);
  });
});

describe('yamlDuplicateFields', () => {
  it('reports the line of each repeated key', () => {
    expect(yamlDuplicateFields('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n')).to.deep.equal(['line 4: key "c" already set in map', 'line 5: key "a" already set in map']);
  });

  // go-yaml v2's strict decoder (setMapIndex) on kube-apiserver 1.34.4: the key as Go's %#v prints the
  // decoded YAML 1.1 key, the line of the value; keys set by a merge key count where the merge stands.
  const configMap = (data: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: &b {x: '1', k: '2'}\ndata:\n${data}`;
  const cases: [string, string[]][] = [
    [configMap("  y: a\n  y: b\n"), ['line 8: key true already set in map']],
    [configMap("  1: 'a'\n  1: 'b'\n  1.5: 'c'\n  1.5: 'd'\n  yes: 'g'\n  on: 'h'\n  1e3: 'i'\n  1000.0: 'j'\n  0.00001: 'k'\n  0.00001: 'l'\n  1234567.0: 'm'\n  1234567.0: 'o'\n  -0.0: 'p'\n  0.0: 'q'\n  1.0: 'r'\n"), [
      'line 8: key 1 already set in map', 'line 10: key 1.5 already set in map', 'line 12: key true already set in map', 'line 14: key 1000 already set in map',
      'line 16: key 1e-05 already set in map', 'line 18: key 1.234567e+06 already set in map', 'line 20: key 0 already set in map',
    ]],
    [configMap("  <<: *b\n  k: '3'\n"), ['line 8: key "k" already set in map']],
    [configMap("  k: '3'\n  <<: *b\n"), ['line 5: key "k" already set in map']],
    [configMap("  <<: {k: '1', j: '2'}\n  k: '3'\n"), ['line 8: key "k" already set in map']],
    [configMap("  <<: &m {a: '1'}\n  <<: {a: '2'}\n"), ['line 8: key "a" already set in map']],
    [configMap("  k:\n    '1'\n  k:\n    '2'\n"), ['line 10: key "k" already set in map']],
    ['metadata:\n  labels: &a {x: 1, k: 2}\n  annotations: &b {k: 4, z: 5}\ndata:\n  <<: [*a, *b]\n', ['line 2: key "k" already set in map']],
    ['spec:\n  free:\n    base: &b {x: 1, y: 2}\n    merged:\n      <<: *b\n      y: 3\n', ['line 6: key true already set in map']],
  ];
  it('words keys and lines as go-yaml does, merge keys included', () => {
    for (const [text, problems] of cases) expect(yamlDuplicateFields(text), text).to.deep.equal(problems);
  });

  it('bounds the work of merges that alias merges', () => {
    // Each level merges the one before twice: 2^40 keys if every merge were followed.
    let text = 'l0: &l0 {a: 1, b: 2}\n';
    for (let i = 1; i <= 40; i++) text += `l${i}: &l${i} {<<: [*l${i - 1}, *l${i - 1}]}\n`;
    expect(yamlDuplicateFields(text).length).to.be.greaterThan(0);
  });
});

describe('fieldValidation on custom resources', () => {
  let server: ApiServer;
  let client: Client;
  const path = '/apis/schema.example.com/v1/schemas';

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'schemas.schema.example.com' },
      spec: { group: 'schema.example.com', scope: 'Cluster', names: { plural: 'schemas', singular: 'schema', kind: 'Schema' }, versions: [{ name: 'v1', served: true, storage: true, schema }] },
    });
  });

  after(async () => {
    await server.close();
  });

  const put = async (name: string, mode: string | undefined, yaml: boolean) => {
    const created = await client.post(path, { apiVersion: 'schema.example.com/v1', kind: 'Schema', metadata: { name }, spec: { knownField1: 'val1', ports: [{ name: 'portName', containerPort: 8080, protocol: 'TCP', hostPort: 8081 }] } });
    expect(created.status).to.equal(201);
    const rv = created.body.metadata.resourceVersion as string;
    const body = yaml ? crdInvalidBodyYAML(name, rv) : crdInvalidBody(name, rv);
    return client.request('PUT', `${path}/${name}${mode === undefined ? '' : `?fieldValidation=${mode}`}`, body, yaml ? 'application/yaml' : 'application/json');
  };

  for (const yaml of [false, true]) {
    const problems = yaml ? yamlProblems : jsonProblems;
    const suffix = yaml ? '-yaml' : '';
    it(`crd-put-strict-validation${suffix}: 400 with every problem`, async () => {
      const r = await put(`strict${suffix}`, 'Strict', yaml);
      expect(r.status).to.equal(400);
      // The codec names the kind and version it could not take the body as; go-yaml reports every
      // duplicate key as one error ("crd-post-strict-validation-yaml").
      const listed = yaml ? [`yaml: unmarshal errors:\n  ${problems.slice(0, 3).join('\n  ')}`, ...problems.slice(3)] : problems;
      expect(r.body.message).to.equal(`Schema in version "v1" cannot be handled as a Schema: strict decoding error: ${listed.join(', ')}`);
    });

    it(`crd-put-warn-validation${suffix}: one warning per problem`, async () => {
      const r = await put(`warn${suffix}`, 'Warn', yaml);
      expect(r.status).to.equal(200);
      expect(warnings(r.headers.get('warning'))).to.deep.equal(problems);
    });

    it(`crd-put-ignore-validation${suffix}: no warnings`, async () => {
      const r = await put(`ignore${suffix}`, 'Ignore', yaml);
      expect(r.status).to.equal(200);
      expect(r.headers.get('warning')).to.equal(null);
    });

    // The warning recorder writes each warning to the response as the decoder adds it
    // (k8s.io/apiserver pkg/endpoints/filters/warning.go), so they come with the error of a write
    // that fails after the body was decoded: invalid, or an update of an object that is not there.
    // Found by the randomized differential suite; kube-apiserver v1.34.4 answers so.
    it(`crd-put-warn-validation${suffix}: warns on a 422 and a 404 too`, async () => {
      const r = await put(`warn-invalid${suffix}`, 'Warn', yaml);
      expect(r.status).to.equal(200);
      const name = `warn-invalid${suffix}`;
      const bad = yaml ? crdInvalidBodyYAML(name, r.body.metadata.resourceVersion as string).replace('knownField1: val2', 'knownField1: 5') : crdInvalidBody(name, r.body.metadata.resourceVersion as string).replace('"knownField1": "val2"', '"knownField1": 5');
      const invalid = await client.request('PUT', `${path}/${name}?fieldValidation=Warn`, bad, yaml ? 'application/yaml' : 'application/json');
      expect(invalid.status).to.equal(422);
      expect(warnings(invalid.headers.get('warning'))).to.deep.equal(problems);
      const missing = await client.request('PUT', `${path}/nope${suffix}?fieldValidation=Warn`, (yaml ? crdInvalidBodyYAML : crdInvalidBody)(`nope${suffix}`, '1'), yaml ? 'application/yaml' : 'application/json');
      expect(missing.status).to.equal(404);
      expect(warnings(missing.headers.get('warning'))).to.deep.equal(problems);
    });

    it(`crd-put-no-validation${suffix}: warns, as Warn`, async () => {
      const r = await put(`none${suffix}`, undefined, yaml);
      expect(r.status).to.equal(200);
      expect(warnings(r.headers.get('warning'))).to.deep.equal(problems);
      expect(r.body.spec).to.deep.equal({ knownField1: 'val2', ports: [{ name: 'portName', containerPort: 8080, protocol: 'TCP', hostPort: 8082 }] });
    });
  }
});
