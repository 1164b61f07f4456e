import { expect } from 'chai';
import { exitCodes } from '@kubekit/cli';
import { kubekit } from './support/kubekit.js';

const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: shirts.tests.example.com}
spec:
  group: tests.example.com
  scope: Cluster
  names: {plural: shirts, kind: Shirt}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color: {type: string}
              size: {type: string, enum: [S, M, L]}
              when: {type: string, format: date-time}
              quantity: {type: integer}
    selectableFields: [{jsonPath: .spec.color}, {jsonPath: .spec.size}, {jsonPath: .spec.when}, {jsonPath: .spec.quantity}]
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {hue: {type: string}}}}}
    selectableFields: [{jsonPath: .spec.hue}]
`;

describe('fields', () => {
  it('lists each version\'s field labels with their types (no metadata.namespace when cluster-scoped)', async () => {
    const result = await kubekit(['fields', '-'], { stdin: crd });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.equal(
      'shirts.tests.example.com (Shirt, Cluster)\n' +
        'VERSION   FIELD           TYPE\n' +
        'v1        metadata.name   string\n' +
        'v1        spec.color      string\n' +
        'v1        spec.size       string (enum: S, M, L)\n' +
        'v1        spec.when       string (format: date-time)\n' +
        'v1        spec.quantity   integer\n' +
        'v1beta1   metadata.name   string\n' +
        'v1beta1   spec.hue        string\n',
    );
  });

  it('lists metadata.namespace for namespaced resources', async () => {
    const result = await kubekit(['fields', '../../../../examples/shirts/crd/shirts.stable.example.com.yaml']);
    expect(result.stdout).to.equal(
      'shirts.stable.example.com (Shirt, Namespaced)\n' +
        'VERSION   FIELD                TYPE\n' +
        'v1        metadata.name        string\n' +
        'v1        metadata.namespace   string\n' +
        'v1        spec.color           string\n' +
        'v1        spec.size            string\n',
    );
  });

  it('lists the field labels of built-in kinds, by kind, plural or apiVersion/kind', async () => {
    const pod = await kubekit(['fields', 'Pod']);
    expect(pod.code).to.equal(0);
    const lines = pod.stdout.split('\n');
    expect(lines[0]).to.equal('Pod (v1, Namespaced)');
    expect(lines.map((l) => l.split(' ')[0])).to.include.members(['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase', 'spec.hostNetwork']);
    expect((await kubekit(['fields', 'pods'])).stdout).to.equal(pod.stdout);
    expect((await kubekit(['fields', 'v1/Pod'])).stdout).to.equal(pod.stdout);
    const events = await kubekit(['fields', 'events.k8s.io/v1/Event']);
    expect(events.stdout.split('\n')[0]).to.equal('Event (events.k8s.io/v1, Namespaced)');
    expect(events.stdout).to.contain('regarding.name');
  });

  it('refuses what is neither a file nor a known kind', async () => {
    const result = await kubekit(['fields', 'Gizmo']);
    expect(result.code).to.equal(exitCodes.usage);
    expect(result.stderr).to.match(/^error: Gizmo is neither a file nor a built-in kind kubekit knows \(.*Pod.*\)\n$/);
  });
});
