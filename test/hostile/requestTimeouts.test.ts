// A request's `timeout` parameter, on both servers (kube-apiserver 1.34.4, k8s.io/apiserver
// endpoints/filters/request_deadline.go and server/filters/timeout.go): client-go sends it for a client
// with a timeout (`kubectl --request-timeout=5s` is `?timeout=5s`). For a request that is not long-running
// (not a watch, a proxy, or a pod's attach, exec, log or port forwarding) it is read before authentication
// as a Go duration: one that does not parse is a 400; a positive one under the maximum (1 minute) is the
// request's deadline, after which it is answered 504 in plain text. kubekit ignored the parameter.
// Every expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send, type ServerAccess } from './sender.js';

const CM = '/api/v1/namespaces/default/configmaps';
const timeoutBody = '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

async function run(s: Send, _backend: 'kubekit' | 'reference', server: ServerAccess): Promise<void> {
  const invalid = (why: string): [number, string] => [400, `invalid timeout specified in the request URL - ${why}`];
  const answer = async (method: string, path: string, body?: string, send: Send = s): Promise<[number, string]> => {
    const a = await send(method, path, body);
    return [a.status, a.message];
  };
  const configMap = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  expect([
    await answer('GET', `${CM}?timeout=abc`),
    await answer('GET', `${CM}?timeout=1`),
    await answer('GET', `${CM}?timeout=1x`),
    await answer('GET', `${CM}?timeout=99999999999999h`),
    await answer('POST', `${CM}?timeout=5`, configMap('never')),
    await answer('GET', '/version?timeout=abc'),
    await answer('GET', '/healthz?timeout=.'),
    // Before authentication: a token that does not authenticate still gets the 400.
    await answer('GET', `${CM}?timeout=abc`, undefined, server.as('not-a-token')),
  ]).to.deep.equal([
    invalid('time: invalid duration "abc"'), invalid('time: missing unit in duration "1"'), invalid('time: unknown unit "x" in duration "1x"'),
    invalid('time: invalid duration "99999999999999h"'), invalid('time: missing unit in duration "5"'), invalid('time: invalid duration "abc"'),
    invalid('time: invalid duration "."'), invalid('time: invalid duration "abc"'),
  ]);
  expect((await s('GET', `${CM}/never`)).status).to.equal(404);
  expect((await server.as('not-a-token')('GET', `${CM}?timeout=5s`)).status).to.equal(401);
  // Long-running requests do not read it; zero, negative or over the maximum is the maximum.
  for (const path of [`${CM}?watch=1&timeout=abc&timeoutSeconds=1`, `${CM}?timeout=0s`, `${CM}?timeout=-1s`, `${CM}?timeout=2h`, `${CM}?timeout=1.5s`, `${CM}?timeout=`]) {
    expect((await s('GET', path)).status, path).to.equal(200);
  }
  expect((await s('GET', '/api/v1/namespaces/default/pods/nope/log?timeout=abc')).message).to.equal('pods "nope" not found');

  // Past the deadline before anything was done: the 504 as Go's timeout writer writes it, and nothing written.
  for (const [method, path, body] of [['GET', `${CM}?timeout=1ns`], ['GET', '/version?timeout=1ns'], ['POST', `${CM}?timeout=1ns`, configMap('late')]]) {
    const late = await s(method, path, body);
    expect([late.status, late.headers['content-type'], late.text], path).to.deep.equal([504, 'text/plain; charset=utf-8', timeoutBody]);
  }
  expect((await s('GET', `${CM}/late`)).status).to.equal(404);
  // Reached while the request waits (for a resourceVersion the server has not reached: at most 3 s).
  const started = Date.now();
  const waiting = await s('GET', '/api/v1/namespaces?resourceVersion=99999999&resourceVersionMatch=NotOlderThan&timeout=500ms');
  expect([waiting.status, waiting.text]).to.deep.equal([504, timeoutBody]);
  expect(Date.now() - started).to.be.within(450, 2_500);
  // A deadline beyond the wait: the wait's own 504.
  const tooLarge = await s('GET', '/api/v1/namespaces?resourceVersion=99999999&resourceVersionMatch=NotOlderThan&timeout=10s');
  expect([tooLarge.status, tooLarge.message.startsWith('Timeout: Too large resource version: 99999999, current: ')]).to.deep.equal([504, true]);
  // The server goes on.
  answered(await s('POST', `${CM}?timeout=10s`, configMap('after')), 201);
}

describeOnBothServers('a request\'s timeout: a Go duration read before authentication, its deadline answered 504, kubekit and the real kube-apiserver', run, { token: 'timeout-test-token' });
