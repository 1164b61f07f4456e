// networking.k8s.io/v1 Ingresses on both servers: the strategy (status cleared on create and kept on update,
// generation per spec change, /status keeping the spec), ValidateIngressCreate/Update (rules, paths and their
// types, backends, hosts and wildcards, TLS, the class name and its annotation), ValidateIngressStatusUpdate,
// the class annotation's deprecation warning, the status IP warnings and the Table
// (pkg/registry/networking/ingress/strategy.go, pkg/apis/networking/validation/validation.go,
// pkg/printers/internalversion printIngress). Every expected message is kube-apiserver 1.34.4's answer to the
// same request (the reference server runs the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, eventually, refused, type Answer, type Send } from './sender.js';

const P = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
type Json = Record<string, unknown>;
const mk = (name: string, spec: Json, meta: Json = {}): string => JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name, ...meta }, spec });
const svc = (name: string, port: Json): Json => ({ service: { name, port } });
const path = (p: string, pathType: string, backend: Json): Json => ({ path: p, pathType, backend });

interface Ingress { metadata: { name: string; generation: number }; spec: Json; status: Json }

const ok = (a: Answer, status = 200): Ingress => answered<Ingress>(a, status);

async function run(s: Send): Promise<void> {
  const spec = { ingressClassName: 'nginx', rules: [{ host: 'a.example.com', http: { paths: [path('/', 'Prefix', svc('web', { number: 80 }))] } }], tls: [{ hosts: ['a.example.com'], secretName: 'tls' }] };
  const created = ok(await s('POST', P, mk('a', spec)), 201);
  expect([created.metadata.generation, created.spec, created.status]).to.deep.equal([1, spec, { loadBalancer: {} }]);

  refused(await s('POST', P, mk('b', {})), "Ingress.networking.k8s.io \"b\" is invalid: spec: Invalid value: null: either `defaultBackend` or `rules` must be specified");
  // A list sent empty is printed as Go holds it: [] (regression: printed null).
  refused(await s('POST', P, mk('b2', { rules: [] })), "Ingress.networking.k8s.io \"b2\" is invalid: spec: Invalid value: []: either `defaultBackend` or `rules` must be specified");
  refused(await s('POST', P, mk('c', { rules: [
    { host: '1.2.3.4', http: { paths: [
      path('a', 'Exact', svc('Web', { name: 'http', number: 80 })), path('/a//b/..', 'Prefix', svc('', {})), path('x', 'Weird', svc('w', { number: 70000 })),
      { path: '/', backend: svc('w', { number: 1 }) }, path('rel', 'ImplementationSpecific', { resource: { kind: '', name: 'a/b', apiGroup: 'Bad_Group' } }),
      path('/', 'Exact', { resource: { kind: 'K', name: 'n' }, service: { name: 'w', port: { number: 1 } } }), path('/', 'Exact', {}),
    ] } },
    { host: '*.ex.com', http: { paths: [] } }, { host: 'a.*.com' },
  ] })), "Ingress.networking.k8s.io \"c\" is invalid: [spec.rules[0].host: Invalid value: \"1.2.3.4\": must be a DNS name, not an IP address, spec.rules[0].http.paths[0].path: Invalid value: \"a\": must be an absolute path, spec.rules[0].http.paths[0].backend.service.name: Invalid value: \"Web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), spec.rules[0].http.paths[0].backend: Invalid value: \"\": cannot set both port name & port number, spec.rules[0].http.paths[1].path: Invalid value: \"/a//b/..\": must not contain '//', spec.rules[0].http.paths[1].path: Invalid value: \"/a//b/..\": cannot end with '/..', spec.rules[0].http.paths[1].backend.service.name: Required value, spec.rules[0].http.paths[1].backend: Required value: port name or number is required, spec.rules[0].http.paths[2].pathType: Unsupported value: \"Weird\": supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\", spec.rules[0].http.paths[2].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.rules[0].http.paths[3].pathType: Required value: pathType must be specified, spec.rules[0].http.paths[4].path: Invalid value: \"rel\": must be an absolute path, spec.rules[0].http.paths[4].backend.resource.apiGroup: Invalid value: \"Bad_Group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.rules[0].http.paths[4].backend.resource.kind: Required value, spec.rules[0].http.paths[4].backend.resource.name: Invalid value: \"a/b\": may not contain '/', spec.rules[0].http.paths[5].backend: Invalid value: \"\": cannot set both resource and service backends, spec.rules[0].http.paths[6].backend: Invalid value: \"\": resource or service backend is required, spec.rules[1].http.paths: Required value, spec.rules[2].host: Invalid value: \"a.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]");
  refused(await s('POST', P, mk('d', { defaultBackend: svc('w', { name: 'Bad--Name' }), tls: [{ hosts: ['*.ok.com', 'Bad_Host', '*'], secretName: 'Bad_Secret' }], ingressClassName: 'Bad Class' })), "Ingress.networking.k8s.io \"d\" is invalid: [spec.defaultBackend.service.port.name: Invalid value: \"Bad--Name\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), spec.defaultBackend.service.port.name: Invalid value: \"Bad--Name\": must not contain consecutive hyphens, spec.tls[0].hosts[1]: Invalid value: \"Bad_Host\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.tls[0].hosts[2]: Invalid value: \"*\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.tls[0].secretName: Invalid value: \"Bad_Secret\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.ingressClassName: Invalid value: \"Bad Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]");
  refused(await s('POST', P, mk('e', { ingressClassName: 'a', defaultBackend: svc('w', { number: 80 }) }, { annotations: { 'kubernetes.io/ingress.class': 'b' } })), "Ingress.networking.k8s.io \"e\" is invalid: annotations.kubernetes.io/ingress.class: Invalid value: \"b\": must match `ingressClassName` when both are specified");

  // The class annotation alone: taken, with a warning.
  const annotated = await s('POST', P, mk('f', { defaultBackend: svc('w', { number: 80 }) }, { annotations: { 'kubernetes.io/ingress.class': 'b' } }));
  expect([annotated.status, annotated.warnings]).to.deep.equal([201, ["annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead"]]);
  ok(await s('POST', P, mk('g', { rules: [{ host: 'a.com' }, {}, { host: 'b.com' }, { host: 'c.com' }, { host: 'd.com' }, {}] })), 201);

  // An update keeps the status and counts the spec's changes.
  const put = ok(await s('PUT', `${P}/a`, JSON.stringify({ ...created, spec: { ...spec, ingressClassName: 'other' }, status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } })));
  expect([put.metadata.generation, put.spec.ingressClassName, put.status]).to.deep.equal([2, 'other', { loadBalancer: {} }]);

  // /status: the load balancer's addresses checked, the spec kept, a non-standard IP warned about.
  refused(await s('PUT', `${P}/a/status`, JSON.stringify({ ...put, spec: {}, status: { loadBalancer: { ingress: [{ ip: '300.1.1.1', hostname: '1.2.3.4' }, { hostname: 'Bad_Host' }] } } })), "Ingress.networking.k8s.io \"a\" is invalid: [status.loadBalancer.ingress[0].ip: Invalid value: \"300.1.1.1\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), status.loadBalancer.ingress[0].hostname: Invalid value: \"1.2.3.4\": must be a DNS name, not an IP address, status.loadBalancer.ingress[1].hostname: Invalid value: \"Bad_Host\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]");
  const lb = { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com', ports: [{ port: 80, protocol: 'TCP' }] }, { ip: '010.0.0.1' }] };
  const status = await s('PUT', `${P}/a/status`, JSON.stringify({ ...put, spec: {}, status: { loadBalancer: lb } }));
  expect([status.status, status.warnings]).to.deep.equal([200, ["status.loadBalancer.ingress[2]: non-standard IP address \"010.0.0.1\" will be considered invalid in a future Kubernetes release: use \"10.0.0.1\""]]);
  expect([(JSON.parse(status.text) as Ingress).spec, (JSON.parse(status.text) as Ingress).status]).to.deep.equal([put.spec, { loadBalancer: lb }]);

  // What kubectl prints: class, hosts (three, then how many more rules), addresses, ports.
  const table = await s('GET', P, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
  const parsed = JSON.parse(table.text) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
  expect(parsed.columnDefinitions.map((c) => [c.name, c.type])).to.deep.equal([['Name', 'string'], ['Class', 'string'], ['Hosts', 'string'], ['Address', 'string'], ['Ports', 'string'], ['Age', 'string']]);
  expect(parsed.rows.map((r) => r.cells.slice(0, 5))).to.deep.equal([["a", "other", "a.example.com", "010.0.0.1,10.0.0.2,lb.example.com", "80, 443"], ["f", "<none>", "*", "", "80"], ["g", "<none>", "a.com,b.com,c.com + 3 more...", "", "80"]]);
}

describeOnBothServers('Ingresses (networking.k8s.io/v1)', run);

const C = '/apis/networking.k8s.io/v1/ingressclasses';
const mkClass = (name: string, spec: Json, meta: Json = {}): string => JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name, ...meta }, spec });

// IngressClasses: ValidateIngressClass (a domain-prefixed controller of at most 250 bytes, parameters with a
// scope, defaulted to Cluster), the controller immutable, the Table; and the DefaultIngressClass admission
// plugin, which gives an Ingress without a class the newest default one.
async function runClasses(s: Send): Promise<void> {
  const created = JSON.parse((await s('POST', C, mkClass('nginx', { controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Params', name: 'p', apiGroup: 'example.com' } }))).text) as Ingress;
  expect(created.spec).to.deep.equal({"controller": "k8s.io/ingress-nginx", "parameters": {"apiGroup": "example.com", "kind": "Params", "name": "p", "scope": "Cluster"}});
  refused(await s('POST', C, mkClass('bad', { controller: 'nodomain' })), "IngressClass.networking.k8s.io \"bad\" is invalid: spec.controller: Invalid value: \"nodomain\": must be a domain-prefixed path (such as \"acme.io/foo\")");
  refused(await s('POST', C, mkClass('bad2', { controller: `${'x'.repeat(260)}.com/y`, parameters: { kind: '', name: 'a/b', scope: 'Namespace' } })), "IngressClass.networking.k8s.io \"bad2\" is invalid: [spec.controller: Too long: may not be more than 250 bytes, spec.controller: Invalid value: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.com\": must be no more than 253 characters, spec.parameters.kind: Required value, spec.parameters.name: Invalid value: \"a/b\": may not contain '/', spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace']");
  refused(await s('POST', C, mkClass('bad3', { controller: 'a.com/b', parameters: { kind: 'K', name: 'n', scope: 'Cluster', namespace: 'x' } })), "IngressClass.networking.k8s.io \"bad3\" is invalid: spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'");
  refused(await s('POST', C, mkClass('bad4', { controller: 'a.com/b', parameters: { kind: 'K', name: 'n', scope: 'Global' } })), "IngressClass.networking.k8s.io \"bad4\" is invalid: spec.parameters.scope: Unsupported value: \"Global\": supported values: \"Cluster\", \"Namespace\"");
  refused(await s('POST', C, mkClass('bad5', { controller: 'a.com/b', parameters: { kind: 'K', name: 'n', scope: 'Namespace', namespace: 'Bad_NS' } })), "IngressClass.networking.k8s.io \"bad5\" is invalid: spec.parameters.namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  refused(await s('POST', C, mkClass('empty', {})), "IngressClass.networking.k8s.io \"empty\" is invalid: spec.controller: Required value");
  refused(await s('PUT', `${C}/nginx`, JSON.stringify({ ...created, spec: { controller: 'k8s.io/other' } })), "IngressClass.networking.k8s.io \"nginx\" is invalid: spec.controller: Invalid value: \"k8s.io/other\": field is immutable");

  // Two default classes: the newer one (a second later) is given to an Ingress that names none.
  const isDefault = { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } };
  expect((await s('POST', C, mkClass('def1', { controller: 'a.com/one' }, isDefault))).status).to.equal(201);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  expect((await s('POST', C, mkClass('def2', { controller: 'a.com/two' }, isDefault))).status).to.equal(201);
  const backend = { defaultBackend: svc('w', { number: 80 }) };
  // The reference's plugin lists classes through an informer, which sees def2 a moment after its create.
  await eventually(() => s('POST', `${P}?dryRun=All`, mk('defaulted', backend)), (a) => a.status === 201 && (JSON.parse(a.text) as Ingress).spec.ingressClassName === 'def2');
  expect(ok(await s('POST', P, mk('defaulted', backend)), 201).spec).to.deep.equal({"ingressClassName": "def2", "defaultBackend": {"service": {"name": "w", "port": {"number": 80}}}});
  // The class annotation counts as a class: none is given.
  expect(ok(await s('POST', P, mk('annotated', backend, { annotations: { 'kubernetes.io/ingress.class': 'x' } })), 201).spec).to.deep.equal({"defaultBackend": {"service": {"name": "w", "port": {"number": 80}}}});

  const table = await s('GET', C, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
  expect((JSON.parse(table.text) as { rows: { cells: unknown[] }[] }).rows.map((r) => r.cells.slice(0, 3))).to.deep.equal([["def1", "a.com/one", "<none>"], ["def2", "a.com/two", "<none>"], ["nginx", "k8s.io/ingress-nginx", "Params.example.com/p"]]);
}

describeOnBothServers('IngressClasses (networking.k8s.io/v1) and the default class', runClasses);
