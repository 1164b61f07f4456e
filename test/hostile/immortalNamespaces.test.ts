// The namespaces the apiserver keeps, and the Namespaces' routes, on both servers: `NamespaceLifecycle`
// refuses to delete `default`, `kube-system` and `kube-public` (a dry run too), once the options are valid,
// the namespace read and the preconditions checked (the namespace REST's deleteValidation); others go. A
// POST to a namespace's own URL has no route (405; kubekit created the namespace the body named). Every
// expected answer is kube-apiserver 1.34.4's to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const N = '/api/v1/namespaces';
const forbidden = (name: string): unknown => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `namespaces "${name}" is forbidden: this namespace may not be deleted`, reason: 'Forbidden', details: { name, kind: 'namespaces' }, code: 403 });
const notAllowed = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };

async function run(s: Send): Promise<void> {
  const answer = async (method: string, path: string, body?: string): Promise<[number, unknown]> => {
    const a = await s(method, path, body);
    return [a.status, JSON.parse(a.text)];
  };
  for (const name of ['default', 'kube-system', 'kube-public']) {
    expect(await answer('DELETE', `${N}/${name}`), name).to.deep.equal([403, forbidden(name)]);
    expect(await answer('DELETE', `${N}/${name}?dryRun=All`), name).to.deep.equal([403, forbidden(name)]);
    expect(await answer('DELETE', `${N}/${name}`, '{"propagationPolicy":"Foreground"}'), name).to.deep.equal([403, forbidden(name)]);
  }
  // What comes first: invalid options, then a failed precondition.
  const [invalid, bad] = await answer('DELETE', `${N}/default`, '{"propagationPolicy":"Bogus"}');
  expect([invalid, (bad as { message: string }).message]).to.deep.equal([422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"']);
  const [conflict, precondition] = await answer('DELETE', `${N}/default`, '{"preconditions":{"uid":"x"}}');
  expect([conflict, (precondition as { reason: string }).reason]).to.deep.equal([409, 'Conflict']);
  // The other namespaces go.
  const [dry, lease] = await answer('DELETE', `${N}/kube-node-lease?dryRun=All`);
  expect([dry, (lease as { status: { phase: string } }).status.phase]).to.deep.equal([200, 'Terminating']);
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    const [code, ns] = await answer('GET', `${N}/${name}`);
    expect([code, (ns as { status: { phase: string }; metadata: { deletionTimestamp?: string } }).status.phase, (ns as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp], name).to.deep.equal([200, 'Active', undefined]);
  }
  // No POST route on a namespace's URL.
  expect(await answer('POST', `${N}/made-by-post`, '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"made-by-post"}}')).to.deep.equal([405, notAllowed]);
  expect(await answer('POST', `${N}/default`, '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"made-by-post"}}')).to.deep.equal([405, notAllowed]);
  expect((await s('GET', `${N}/made-by-post`)).status).to.equal(404);
}

describeOnBothServers('hostile input: the namespaces no one may delete, and no POST to a namespace, kubekit and the real kube-apiserver', run);
