// Server-side apply through a custom resource's `/scale`: kube-apiserver 1.34.4 answers a 500 once the
// field manager must convert an `autoscaling/v1` Scale with the custom resource's converter. Which object
// it fails on depends on whether anyone owns the replicas: with an owner, the applied Scale ("failed to
// convert new object (/name; …)"); without one (created without replicas, or after a write of null
// replicas through /scale), the skipNonApplied manager first updates an empty Scale into the live one and
// fails there ("failed to create manager for existing fields: failed to convert live object (/; …)").
// Found by the hostile differential (seed 20261213, case 324). An apply that changes nothing, with an
// owner, succeeds. Every expected answer is the reference's own.
import { expect } from 'chai';
import { answered, createWidgets, describeOnBothServers, type Send } from './sender.js';

const why = 'to proper version: request to convert CR to an invalid group/version: autoscaling/v1';

async function run(s: Send): Promise<void> {
  const W = await createWidgets(s, 'scaleapply.example.com', { type: 'object', properties: { replicas: { type: 'integer' } } }, {
    statusSchema: { type: 'object', properties: { replicas: { type: 'integer' } } },
    subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
  });
  const apply = (name: string, replicas: number): ReturnType<Send> => s('PATCH', `${W}/${name}/scale?fieldManager=scaler&force=true`, `apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n`, 'application/apply-patch+yaml');
  const failed = async (a: ReturnType<Send>, message: string): Promise<void> => {
    const answer = await a;
    expect([answer.status, answer.message]).to.deep.equal([500, message]);
  };
  const widget = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'scaleapply.example.com/v1', kind: 'Widget', metadata: { name }, spec });

  answered(await s('POST', W, widget('owned', { replicas: 1 })), 201);
  await failed(apply('owned', 2), `failed to convert new object (/owned; autoscaling/v1, Kind=Scale) ${why}`);
  answered(await apply('owned', 1));

  answered(await s('POST', W, widget('unowned', {})), 201);
  await failed(apply('unowned', 2), `failed to create manager for existing fields: failed to convert live object (/; autoscaling/v1, Kind=Scale) ${why}`);

  answered(await s('POST', W, widget('nulled', { replicas: 1 })), 201);
  answered(await s('PATCH', `${W}/nulled/scale`, JSON.stringify({ spec: { replicas: null } }), 'application/merge-patch+json'));
  await failed(apply('nulled', 2), `failed to create manager for existing fields: failed to convert live object (/; autoscaling/v1, Kind=Scale) ${why}`);

  answered(await s('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.scaleapply.example.com'));
}

describeOnBothServers('hostile input: server-side apply through a custom resource\'s /scale, kubekit and the real kube-apiserver', run);
