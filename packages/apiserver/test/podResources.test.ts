// A container's resources as kube-apiserver 1.34.4 validates them (validateResourceRequirements and
// validateContainerResourceName, pkg/apis/core/validation/validation.go; cases after TestValidateResourceRequirements
// and TestValidateContainers there). Every expected message is the reference's answer to the same request,
// probed with test/differential's backends.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, start } from './internal/client.js';

describe('pod resources validated as kube-apiserver 1.34.4 validates them', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  // [resources, the reference's message after 'Pod "…" is invalid: ', or '' when it creates the pod]
  const cases: [Record<string, Record<string, string>>, string][] = [
    [{ requests: { cpu: '2' }, limits: { cpu: '1' } }, "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"],
    [{ requests: { cpu: '-1' } }, "spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"],
    [{ limits: { memory: '-1Gi' } }, "[spec.containers[0].resources.limits[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0, spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0]"],
    [{ requests: { 'example.com/gpu': '1' } }, "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"],
    [{ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } }, "spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to example.com/gpu limit of 2"],
    [{ requests: { 'example.com/gpu': '1.5' }, limits: { 'example.com/gpu': '1.5' } }, "[spec.containers[0].resources.limits[example.com/gpu]: Invalid value: \"1500m\": must be an integer, spec.containers[0].resources.requests[example.com/gpu]: Invalid value: \"1500m\": must be an integer]"],
    [{ requests: { pods: '1' } }, "spec.containers[0].resources.requests[pods]: Invalid value: \"pods\": must be a standard resource for containers"],
    [{ requests: { foo: '1' } }, "[spec.containers[0].resources.requests[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified, spec.containers[0].resources.requests[foo]: Invalid value: \"foo\": must be a standard resource for containers]"],
    [{ requests: { 'kubernetes.io/foo': '1' } }, ''],
    [{ requests: { 'requests.example.com/x': '1' }, limits: { 'requests.example.com/x': '1' } }, "[spec.containers[0].resources.limits[requests.example.com/x]: Invalid value: \"requests.example.com/x\": doesn't follow extended resource name standard, spec.containers[0].resources.requests[requests.example.com/x]: Invalid value: \"requests.example.com/x\": doesn't follow extended resource name standard]"],
    [{ requests: { 'Bad Name': '1' } }, "[spec.containers[0].resources.requests[Bad Name]: Invalid value: \"Bad Name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.containers[0].resources.requests[Bad Name]: Invalid value: \"Bad Name\": must be a standard resource for containers]"],
    [{ limits: { 'hugepages-2Mi': '2Mi' } }, "spec.containers[0].resources: Forbidden: HugePages require cpu or memory"],
    [{ limits: { 'hugepages-2Mi': '3Mi', memory: '1Gi' }, requests: { 'hugepages-2Mi': '3Mi' } }, "[spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi, spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi]"],
    [{ requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '1', memory: '1Gi' } }, "[spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1, spec.containers[0].resources.requests: Invalid value: \"2Gi\": must be less than or equal to memory limit of 1Gi]"],
    [{ requests: { 'example.com/gpu': '-1' }, limits: { 'example.com/gpu': '-1' } }, "[spec.containers[0].resources.limits[example.com/gpu]: Invalid value: \"-1\": must be greater than or equal to 0, spec.containers[0].resources.requests[example.com/gpu]: Invalid value: \"-1\": must be greater than or equal to 0]"],
    [{ requests: { 'ephemeral-storage': '2Gi' }, limits: { 'ephemeral-storage': '1Gi' } }, "spec.containers[0].resources.requests: Invalid value: \"2Gi\": must be less than or equal to ephemeral-storage limit of 1Gi"],
    [{ requests: { cpu: '1e10000000' }, limits: { cpu: '1' } }, "spec.containers[0].resources.requests: Invalid value: \"10e9999999\": must be less than or equal to cpu limit of 1"],
    [{ requests: { cpu: '500m', memory: '1Gi', 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi' }, limits: { cpu: '1', memory: '1Gi', 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi' } }, ''],
  ];

  it(`answers ${cases.length} containers' resources as the reference does`, async () => {
    const wrong: string[] = [];
    for (const [i, [resources, message]] of cases.entries()) {
      const r = await client.post('/api/v1/namespaces/default/pods?dryRun=All', { metadata: { name: `r${i}` }, spec: { containers: [{ name: 'c', image: 'nginx', resources }] } });
      const got = r.status === 201 ? '' : String(r.body.message).replace(/^Pod "r\d+" is invalid: /, '');
      if (got !== message || (message !== '' && r.status !== 422)) wrong.push(`${JSON.stringify(resources)}: ${r.status} ${got}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('checks init containers and workload templates too', async () => {
    const init = await client.post('/api/v1/namespaces/default/pods?dryRun=All', { metadata: { name: 'init' }, spec: {
      containers: [{ name: 'c', image: 'nginx' }],
      initContainers: [{ name: 'i', image: 'x', resources: { requests: { cpu: '3' }, limits: { cpu: '2' } } }],
    } });
    expect([init.status, init.body.message]).to.deep.equal([422, 'Pod "init" is invalid: spec.initContainers[0].resources.requests: Invalid value: "3": must be less than or equal to cpu limit of 2']);
    const deployment = await client.post('/apis/apps/v1/namespaces/default/deployments?dryRun=All', {
      metadata: { name: 'd1' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] } } },
    });
    expect([deployment.status, deployment.body.message]).to.deep.equal([422, 'Deployment.apps "d1" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1']);
  });
});
