// A Pod's log, exec, attach and port forwarding (`kubectl logs`, `kubectl exec`, `kubectl attach`, `kubectl
// port-forward`), as kube-apiserver 1.34.4 answers them before it dials a kubelet: the options decoded from
// the query (strconv's and time.Parse's 400s; booleans take any text), a log's options validated (the 422 of
// PodLogOptions, every error in its order), the pod read (its 404), the container chosen (the only one, else
// a 400 listing them all, init containers first; a named one must be one of them), then the node: none
// assigned is an empty log (204) or `pod p1 does not have a host assigned`; a node that does not exist the
// 404 worded with the pods resource; a node without addresses `no preferred addresses found`; with one, a
// stream without `Upgrade` is the proxy's 400. kubekit had none of these routes (404 "the server could not
// find the requested resource", so `kubectl logs` failed where a cluster prints nothing).
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';

const P = '/api/v1/namespaces/default/pods';

async function run(s: Send): Promise<void> {
  const pod = (name: string, containers: string[], more: Record<string, unknown> = {}): string =>
    JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: containers.map((c) => ({ name: c, image: 'nginx:1.27' })), ...more } });
  answered(await s('POST', P, pod('one', ['a'])), 201);
  answered(await s('POST', P, pod('two', ['a', 'b'], { initContainers: [{ name: 'init', image: 'busybox' }] })), 201);
  answered(await s('POST', '/api/v1/nodes', JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'bare' } })), 201);
  answered(await s('POST', P, pod('on-bare', ['a'], { nodeName: 'bare' })), 201);
  answered(await s('POST', P, pod('on-ghost', ['a'], { nodeName: 'ghost' })), 201);

  const discovery = answered<{ resources: { name: string; kind: string; verbs: string[] }[] }>(await s('GET', '/api/v1'));
  const subs = discovery.resources.filter((r) => ['pods/attach', 'pods/exec', 'pods/log', 'pods/portforward'].includes(r.name)).map((r) => `${r.name} ${r.kind} ${r.verbs.join(',')}`);
  expect(subs).to.deep.equal(['pods/attach PodAttachOptions create,get', 'pods/exec PodExecOptions create,get', 'pods/log Pod get', 'pods/portforward PodPortForwardOptions create,get']);

  const invalid = (name: string, errors: string): string => `PodLogOptions "${name}" is invalid: ${errors}`;
  for (const [method, path, status, message] of [
    ['GET', 'one/log', 204, ''],
    ['GET', 'one/log?follow=x&previous=true&timestamps=1&container=', 204, ''],
    ['GET', 'two/log?container=b', 204, ''],
    ['GET', 'two/log?container=init', 204, ''],
    ['GET', 'two/log', 400, 'a container name must be specified for pod two, choose one of: [init a b]'],
    ['GET', 'one/log?container=x', 400, 'container x is not valid for pod one'],
    ['GET', 'nope/log', 404, 'pods "nope" not found'],
    ['GET', 'nope/log?tailLines=x', 400, 'strconv.ParseInt: parsing "x": invalid syntax'],
    ['GET', 'one/log?sinceTime=yesterday', 400, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    ['GET', 'nope/log?tailLines=-1', 422, invalid('nope', 'tailLines: Invalid value: -1: must be greater than or equal to 0')],
    ['GET', 'one/log?sinceSeconds=0', 422, invalid('one', 'sinceSeconds: Invalid value: 0: must be greater than 0')],
    ['GET', 'one/log?sinceSeconds=1&sinceTime=2020-01-01T00:00:00Z', 422, invalid('one', '[]: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified')],
    // A sinceTime present at all is set: empty and `null` are the zero time, which still excludes sinceSeconds.
    ['GET', 'one/log?sinceSeconds=5&sinceTime=', 422, invalid('one', '[]: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified')],
    ['GET', 'one/log?sinceSeconds=5&sinceTime=null', 422, invalid('one', '[]: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified')],
    ['GET', 'one/log?sinceTime=null', 204, ''],
    ['POST', 'one/portforward?ports=%01', 400, 'cannot convert to []int32: strconv.ParseUint: parsing "\\x01": invalid syntax'],
    ['GET', 'one/log?sinceTime=2020-01-01T00:00:00Z&tailLines=-1&limitBytes=0&stream=All', 422,
      invalid('one', '[tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0, stream: Forbidden: may not be specified]')],
    ['POST', 'one/log', 405, 'the server does not allow this method on the requested resource'],
    ['POST', 'one/exec?command=ls&stdout=true', 400, 'pod one does not have a host assigned'],
    ['GET', 'one/exec?command=ls&stdout=x', 400, 'pod one does not have a host assigned'],
    ['POST', 'one/attach?stdout=true', 400, 'pod one does not have a host assigned'],
    ['POST', 'one/portforward?ports=80,8080', 400, 'pod one does not have a host assigned'],
    ['POST', 'one/portforward?ports=abc', 400, 'cannot convert to []int32: strconv.ParseUint: parsing "abc": invalid syntax'],
    ['POST', 'two/exec?command=ls', 400, 'a container name must be specified for pod two, choose one of: [init a b]'],
    ['POST', 'two/attach?container=zz', 400, 'container zz is not valid for pod two'],
    ['POST', 'nope/exec?command=ls', 404, 'pods "nope" not found'],
    ['GET', 'on-ghost/log', 404, 'pods "ghost" not found'],
    ['POST', 'on-ghost/exec?command=ls', 404, 'pods "ghost" not found'],
    ['GET', 'on-bare/log', 500, 'no preferred addresses found; known addresses: []'],
    ['POST', 'on-bare/portforward?ports=80', 500, 'no preferred addresses found; known addresses: []'],
    // The connect handler refuses any dryRun parameter first (ConnectResource), a missing pod's too; the log is
    // not connected to, and reads none.
    ['POST', 'one/exec?command=ls&dryRun=All', 400, 'dryRun is not supported'],
    ['GET', 'nope/attach?dryRun', 400, 'dryRun is not supported'],
    ['POST', 'one/portforward?ports=abc&dryRun=', 400, 'dryRun is not supported'],
    ['GET', 'one/proxy/a?dryRun=All', 400, 'dryRun is not supported'],
    ['DELETE', 'nope/proxy?dryRun=All', 400, 'dryRun is not supported'],
    ['GET', 'one/log?dryRun=All', 204, ''],
  ] as const) {
    const a = await s(method, `${P}/${path}`);
    expect([a.status, a.message], `${method} ${path}: ${a.text}`).to.deep.equal([status, message]);
    if (status === 204) expect(a.text).to.equal('');
  }
}

describeOnBothServers('a Pod\'s log, exec, attach and port forwarding, answered as the apiserver answers them before it dials a kubelet', run);
