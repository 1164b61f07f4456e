// A write that changes nothing but its managed fields' timestamps is not a write: the generic store reverts
// the timestamps when the managed fields are otherwise the same entries and the rest of the object is
// unchanged (IgnoreManagedFieldsTimestampsTransformer, k8s.io/apiserver 0.34.4
// pkg/endpoints/handlers/fieldmanager/equality.go, called by registry/generic/registry/store.go Update after
// BeforeUpdate). The field manager runs before admission and the strategy, so it can see a change that
// they then undo: a pod PUT without the tolerations DefaultTolerationSeconds adds. Regression: kubekit
// wrote such a PUT whenever it came in a later second than the last write (seen as a rare CI failure of
// "compares a PUT after defaulting and admission…" and of the differential scenario builtin/pod-updates).
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

const PODS = '/api/v1/namespaces/default/pods';

interface Entry { manager: string; operation: string; time: string }
interface Pod { metadata: { name: string; resourceVersion: string; creationTimestamp: string; managedFields?: Entry[] }; spec: Record<string, unknown>; status?: unknown }

const parse = (a: Answer): Pod => {
  expect(a.status, a.text).to.be.oneOf([200, 201]);
  return JSON.parse(a.text) as Pod;
};

/** Waits into the second after the one `pod` was last written in (managed fields' times have seconds). */
async function nextSecond(pod: Pod): Promise<void> {
  const last = Math.max(...(pod.metadata.managedFields ?? []).map((e) => Date.parse(e.time)), Date.parse(pod.metadata.creationTimestamp));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, last + 1000 - Date.now()) + 100));
}

const times = (p: Pod): [string, string, string][] => (p.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.time]);

async function run(s: Send): Promise<void> {
  const spec = { containers: [{ name: 'c', image: 'nginx' }], tolerations: [{ key: 'k', operator: 'Exists' }] };
  const created = parse(await s('POST', `${PODS}?fieldManager=writer`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'noop' }, spec })));
  // DefaultTolerationSeconds added two tolerations; the PUT below leaves them out and admission adds them back.
  expect((created.spec.tolerations as unknown[]).length).to.equal(3);
  const put = (base: Pod, manager: string, labels?: Record<string, string>): Promise<Answer> => {
    const body = JSON.parse(JSON.stringify(base)) as Pod;
    body.spec.tolerations = spec.tolerations;
    delete body.status;
    if (labels !== undefined) (body.metadata as Record<string, unknown>).labels = labels;
    return s('PUT', `${PODS}/noop?fieldManager=${manager}`, JSON.stringify(body));
  };

  await nextSecond(created);
  const same = parse(await put(created, 'writer'));
  expect(same.metadata.resourceVersion, 'a PUT that admission makes a no-op').to.equal(created.metadata.resourceVersion);
  expect(times(same)).to.deep.equal(times(created));
  // A dry run answers what would be stored: the same times.
  const body = JSON.parse(JSON.stringify(created)) as Pod;
  body.spec.tolerations = spec.tolerations;
  expect(times(parse(await s('PUT', `${PODS}/noop?fieldManager=writer&dryRun=All`, JSON.stringify(body))))).to.deep.equal(times(created));

  // Server-side apply of the same configuration (taking the tolerations from writer, then again): the
  // field manager's merge differs from the live object until admission adds the tolerations again.
  const config = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'noop' }, spec });
  const applied = parse(await s('PATCH', `${PODS}/noop?fieldManager=applier&force=true`, config, 'application/apply-patch+yaml'));
  expect(applied.metadata.resourceVersion).to.not.equal(created.metadata.resourceVersion);
  await nextSecond(applied);
  const again = parse(await s('PATCH', `${PODS}/noop?fieldManager=applier`, config, 'application/apply-patch+yaml'));
  expect(again.metadata.resourceVersion, 'an apply that admission makes a no-op').to.equal(applied.metadata.resourceVersion);
  expect(times(again)).to.deep.equal(times(applied));

  // A manager new to the object is recorded, though it changes nothing: the entries differ in number.
  await nextSecond(again);
  const other = parse(await put(again, 'other'));
  expect(other.metadata.resourceVersion).to.not.equal(again.metadata.resourceVersion);
  expect(times(other).map(([m, o]) => [m, o])).to.deep.equal([...times(again).map(([m, o]) => [m, o]), ['other', 'Update']]);

  // A real change still moves its manager's time.
  await nextSecond(other);
  const labelled = parse(await put(other, 'writer', { a: 'b' }));
  expect(labelled.metadata.resourceVersion).to.not.equal(other.metadata.resourceVersion);
  const writerTime = (p: Pod): string | undefined => p.metadata.managedFields?.find((e) => e.manager === 'writer' && e.operation === 'Update')?.time;
  expect(Date.parse(writerTime(labelled)!)).to.be.greaterThan(Date.parse(writerTime(other)!));
}

describeOnBothServers('a write that changes only its managed fields\' timestamps is no write', run);
