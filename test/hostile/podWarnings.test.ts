// The warnings kube-apiserver 1.34.4 sends for pods and pod templates (pkg/api/pod/warnings.go and the
// strategies' WarningsOnCreate/WarningsOnUpdate): names that are no DNS label, deprecated node labels,
// annotations and volume types, null label selectors, duplicate host alias IPs and image pull secrets,
// fractional byte quantities, environment variables hiding earlier ones, duplicate, overlapping and
// ambiguous ports, negative grace periods; and the AppArmor annotation a Pod's strategy copies to the
// container's field. kubekit sent none of them (found by the hostile suite's Deployment family).
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

const ns = 'podwarn';
const c = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'web', image: 'nginx:1.27', ...extra });
const hostname = 'metadata.name: this is used in the Pod\'s hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]';
const podNames = 'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]';

async function run(s: Send): Promise<void> {
  const ok = (a: Answer): Answer => {
    expect(a.status, a.text).to.be.oneOf([200, 201]);
    return a;
  };
  ok(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })));
  let n = 0;
  const pod = async (spec: unknown, annotations?: Record<string, string>): Promise<Answer> => ok(await s('POST', `/api/v1/namespaces/${ns}/pods`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p.${n++}`, ...(annotations === undefined ? {} : { annotations }) }, spec })));

  // (A Pod's negative grace period is set to 1 before the warnings are computed: none about it.)
  expect((await pod({ nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' }, terminationGracePeriodSeconds: -1, containers: [c()] })).warnings).to.deep.equal([
    hostname, 'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
  ]);
  expect((await pod({ containers: [c({ env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }, { name: 'B', value: 'x' }, { name: 'B', value: '$(B)-y' }, { name: 'B', value: '$(B)' }], resources: { limits: { memory: '1.5' } } })] })).warnings).to.deep.equal([
    // (requests default to the limits)
    hostname, 'spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer',
    'spec.containers[0].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer',
    'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
    'spec.containers[0].env[4]: hides previous definition of "B", which may be dropped when using apply',
  ]);
  expect((await pod({
    initContainers: [{ name: 'init', image: 'x:1', ports: [{ containerPort: 80 }] }],
    containers: [c({ ports: [{ containerPort: 80, name: 'http' }, { containerPort: 81, hostIP: '10.0.0.1' }] }), { name: 'side', image: 'x:1', ports: [{ containerPort: 80, hostPort: 8080, name: 'http' }] }],
  })).warnings).to.deep.equal([
    hostname,
    'spec.containers[0].ports[0]: duplicate port definition with spec.initContainers[0].ports[0]',
    'spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:81 Protocol:TCP HostIP:10.0.0.1}',
    'spec.containers[1].ports[0]: overlapping port definition with spec.initContainers[0].ports[0]',
    'spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]',
    'spec.containers[1].ports[0]: duplicate port name "http" with spec.containers[0].ports[0], services and probes that select ports by name will use spec.containers[0].ports[0]',
  ]);
  // Volume files whose paths overlap (a trailing slash is cut), and a projection without a source.
  expect((await pod({
    volumes: [
      { name: 'cm', configMap: { name: 'c', items: [{ key: 'a', path: 'x' }, { key: 'b', path: 'x/y' }, { key: 'c', path: 'x/' }] } },
      { name: 'dw', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }, { path: 'n', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
      { name: 'pr', projected: { sources: [{ configMap: { name: 'c', items: [{ key: 'a', path: 't' }] } }, { secret: { name: 's', items: [{ key: 'a', path: 't/u' }] } }, {}] } },
    ],
    containers: [c()],
  })).warnings).to.deep.equal([
    hostname, 'volume "cm" (ConfigMap "c"): overlapping paths: "x/y" with "x"', 'volume "cm" (ConfigMap "c"): overlapping paths: "x" with "x"',
    'volume "cm" (ConfigMap "c"): overlapping paths: "x" with "x/y"', 'volume "dw" (DownwardAPI): overlapping paths: "n" with "n"',
    'volume "pr" (Projected): overlapping paths: "t/u" (Secret "s") with "t" (ConfigMap "c")', 'volume "pr" (Projected) has no sources provided',
  ]);
  // Nameservers and host alias IPs in a form Go's strict parser refuses, or not in RFC 5952's.
  expect((await pod({ dnsConfig: { nameservers: ['010.1.2.3', '::ffff:1.2.3.4', '1:0:0:2:0:0:0:3'] }, hostAliases: [{ ip: '64:ff9b::01.2.3.4', hostnames: ['h'] }], containers: [c()] })).warnings).to.deep.equal([
    hostname,
    'spec.dnsConfig.nameservers[0]: non-standard IP address "010.1.2.3" will be considered invalid in a future Kubernetes release: use "10.1.2.3"',
    'spec.dnsConfig.nameservers[1]: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"',
    'spec.dnsConfig.nameservers[2]: IPv6 address "1:0:0:2:0:0:0:3" should be in RFC 5952 canonical format ("1:0:0:2::3")',
    'spec.hostAliases[0].ip: non-standard IP address "64:ff9b::01.2.3.4" will be considered invalid in a future Kubernetes release: use "64:ff9b::102:304"',
  ]);
  // The AppArmor annotation becomes the container's field, and is warned about first.
  const armored = await pod({ containers: [c()] }, { 'container.apparmor.security.beta.kubernetes.io/web': 'localhost/custom' });
  expect(armored.warnings).to.deep.equal(['metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]: deprecated since v1.30; use the "appArmorProfile" field instead', hostname]);
  const container = (JSON.parse(armored.text) as { spec: { containers: { securityContext?: unknown }[] } }).spec.containers[0];
  expect(container.securityContext).to.deep.equal({ appArmorProfile: { type: 'Localhost', localhostProfile: 'custom' } });

  // A Deployment warns on create, and on an update that changes its spec.
  const template = { metadata: { labels: { app: 'w' }, annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' } }, spec: { volumes: [{ name: 'g', gitRepo: { repository: 'x' } }], containers: [c()] } };
  const D = `/apis/apps/v1/namespaces/${ns}/deployments`;
  expect(ok(await s('POST', D, JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd.x' }, spec: { selector: { matchLabels: { app: 'w' } }, template } }))).warnings).to.deep.equal([
    podNames, 'spec.template.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
    'spec.template.spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+',
  ]);
  const merge = (body: unknown): Promise<Answer> => s('PATCH', `${D}/d.x`, JSON.stringify(body), 'application/merge-patch+json');
  expect(ok(await merge({ spec: { template: { spec: { imagePullSecrets: [{ name: 'a' }, { name: 'a' }], terminationGracePeriodSeconds: -1 } } } })).warnings).to.deep.equal([
    'spec.template.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
    'spec.template.spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+', 'spec.template.spec.imagePullSecrets[1].name: duplicate name "a"',
    'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
  ]);
  expect(ok(await merge({ metadata: { labels: { x: 'y' } } })).warnings).to.deep.equal([]);

  // A StatefulSet takes a negative revisionHistoryLimit with a warning; a Job warns about its template.
  expect(ok(await s('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, JSON.stringify({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'st' }, spec: { revisionHistoryLimit: -1, selector: { matchLabels: { app: 'w' } }, template: { metadata: { labels: { app: 'w' } }, spec: { containers: [c()] } } } }))).warnings)
    .to.deep.equal(['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended']);
  expect(ok(await s('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j.1' }, spec: { template: { spec: { restartPolicy: 'Never', affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k' }] } }, containers: [c()] } } } }))).warnings)
    .to.deep.equal([podNames, 'spec.template.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod']);
}

describeOnBothServers('the warnings of pods and pod templates, and the AppArmor annotation a Pod\'s strategy copies', run);
