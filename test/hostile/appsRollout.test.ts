// How kube-apiserver 1.34.4 validates the rollout settings of the apps kinds (pkg/apis/apps/validation:
// ValidateDeploymentStrategy, ValidateRollingUpdateDeployment, ValidateDaemonSetUpdateStrategy,
// ValidateRollingUpdateDaemonSet, the update strategy of ValidateStatefulSetSpec, and the
// minReadySeconds, revisionHistoryLimit and progressDeadlineSeconds checks). kubekit checked none of them:
// a Deployment patched to `Recreate` beside its defaulted `rollingUpdate`, to 110% unavailable, or to a
// progress deadline below minReadySeconds was stored (found by the hostile suite's Deployment family).
// An int-or-string is printed as Go's json.Marshal prints it, a strategy as its internal struct.
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

const ns = 'rollout';
const template = { metadata: { labels: { app: 'r' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
const sel = { selector: { matchLabels: { app: 'r' } }, template };

async function run(s: Send): Promise<void> {
  const ok = (a: Answer): void => {
    expect(a.status, a.text).to.be.oneOf([200, 201]);
  };
  const invalid = (a: Answer, message: string): void => {
    expect(a.status, a.text).to.equal(422);
    expect(a.message).to.equal(message);
  };
  ok(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })));
  const D = `/apis/apps/v1/namespaces/${ns}/deployments`;
  const create = (path: string, kind: string, name: string, spec: unknown): Promise<Answer> => s('POST', path, JSON.stringify({ apiVersion: 'apps/v1', kind, metadata: { name }, spec }));
  const patch = (path: string, body: unknown, type = 'strategic-merge-patch+json'): Promise<Answer> => s('PATCH', path, JSON.stringify(body), `application/${type}`);

  // Deployments: the defaulted rollingUpdate stays beside a patched Recreate (a strategic merge patch
  // keeps it; `$retainKeys` or a null drops it).
  ok(await create(D, 'Deployment', 'd', { replicas: 1, ...sel }));
  const forbidden = 'Deployment.apps "d" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'';
  invalid(await patch(`${D}/d`, { spec: { strategy: { type: 'Recreate' } } }), forbidden);
  invalid(await patch(`${D}/d`, { spec: { strategy: { type: 'Recreate' } } }, 'merge-patch+json'), forbidden);
  ok(await patch(`${D}/d`, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }));
  ok(await patch(`${D}/d`, { spec: { strategy: { type: 'RollingUpdate' } } }));
  invalid(await patch(`${D}/d`, { spec: { strategy: { type: 'BlueGreen' } } }, 'merge-patch+json'),
    'Deployment.apps "d" is invalid: spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":{"MaxUnavailable":"25%","MaxSurge":"25%"}}: supported values: "Recreate", "RollingUpdate"');
  invalid(await patch(`${D}/d`, { spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } } }),
    'Deployment.apps "d" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0');
  invalid(await patch(`${D}/d`, { spec: { strategy: { rollingUpdate: { maxSurge: 'abc', maxUnavailable: '110%' } } } }),
    'Deployment.apps "d" is invalid: [spec.strategy.rollingUpdate.maxSurge: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending \'%\' (e.g. \'1%\',  or \'93%\', regex used for validation is \'[0-9]+%\'), spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%]');
  invalid(await patch(`${D}/d`, { spec: { strategy: { rollingUpdate: { maxSurge: -1 } } } }),
    'Deployment.apps "d" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0');
  invalid(await patch(`${D}/d`, { spec: { minReadySeconds: -1, revisionHistoryLimit: -2 } }),
    'Deployment.apps "d" is invalid: [spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0, spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0]');
  invalid(await patch(`${D}/d`, { spec: { minReadySeconds: 30, progressDeadlineSeconds: 30 } }),
    'Deployment.apps "d" is invalid: spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds');
  invalid(await create(D, 'Deployment', 'd2', { ...sel, strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }, progressDeadlineSeconds: -1 }),
    'Deployment.apps "d2" is invalid: [spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\', spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds]');
  ok(await create(D, 'Deployment', 'd3', { ...sel, strategy: { type: 'Recreate' }, minReadySeconds: 5, progressDeadlineSeconds: 6, revisionHistoryLimit: 0 }));

  // DaemonSets: exactly one of maxUnavailable and maxSurge is non-zero.
  const DS = `/apis/apps/v1/namespaces/${ns}/daemonsets`;
  invalid(await create(DS, 'DaemonSet', 'a', { ...sel, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } } }),
    'DaemonSet.apps "a" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero');
  invalid(await create(DS, 'DaemonSet', 'a', { ...sel, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0%', maxSurge: 0 } } }),
    'DaemonSet.apps "a" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0');
  invalid(await create(DS, 'DaemonSet', 'a', { ...sel, minReadySeconds: -3, updateStrategy: { type: 'Sometimes' }, revisionHistoryLimit: -1 }),
    'DaemonSet.apps "a" is invalid: [spec.minReadySeconds: Invalid value: -3: must be greater than or equal to 0, spec.updateStrategy: Unsupported value: {"Type":"Sometimes","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete", spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0]');
  ok(await create(DS, 'DaemonSet', 'a', { ...sel, updateStrategy: { type: 'OnDelete' } }));

  // StatefulSets: rollingUpdate only with RollingUpdate, a partition not below 0.
  const STS = `/apis/apps/v1/namespaces/${ns}/statefulsets`;
  invalid(await create(STS, 'StatefulSet', 's', { ...sel, updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } } }),
    'StatefulSet.apps "s" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":2,"MaxUnavailable":null}: only allowed for updateStrategy \'RollingUpdate\'');
  invalid(await create(STS, 'StatefulSet', 's', { ...sel, minReadySeconds: -1, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }),
    'StatefulSet.apps "s" is invalid: [spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0, spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0]');
  invalid(await create(STS, 'StatefulSet', 's', { ...sel, updateStrategy: { type: 'Later' } }),
    'StatefulSet.apps "s" is invalid: spec.updateStrategy: Invalid value: {"Type":"Later","RollingUpdate":null}: must be \'RollingUpdate\' or \'OnDelete\'');

  // ReplicaSets: minReadySeconds.
  invalid(await create(`/apis/apps/v1/namespaces/${ns}/replicasets`, 'ReplicaSet', 'x', { ...sel, minReadySeconds: -1 }),
    'ReplicaSet.apps "x" is invalid: spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0');
}

describeOnBothServers('the rollout settings of Deployments, DaemonSets, StatefulSets and ReplicaSets', run);
