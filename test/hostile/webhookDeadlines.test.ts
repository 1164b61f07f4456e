// The admission webhooks of a request with a deadline, on both servers (kube-apiserver 1.34.4,
// k8s.io/apiserver admission/plugin/webhook/{validating,mutating}/dispatcher.go): a webhook is called
// under `context.WithTimeout(requestContext, timeoutSeconds)`, so its deadline is whichever comes first,
// and the `?timeout=` it is sent is what is left of that, rounded up to a whole second. Once the request's
// deadline has passed, its storage calls fail with the expired context: a write or a delete whose webhook
// outlived the request's `?timeout=` is answered 504 and stores nothing, even when the webhook's failure is
// ignored. A request whose client goes away is cancelled the same way (Go's server cancels a request's
// context when its connection closes): its webhook call is cut, and it stores nothing. kubekit sent the
// webhook's own timeout, and stored the object after its 504 and after its client had gone.
// Every expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send, type ServerAccess } from './sender.js';
import { startWebhook, untilInForce, type TestWebhook } from './webhookServer.js';

const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const slowMs = 3000;

/** A webhook that allows everything, after `slowMs` for an object (or old object) labelled `slow`; it records what it was sent. */
async function webhook(): Promise<TestWebhook & { url: string; calls: { name: string; operation: string; timeout: string }[] }> {
  const calls: { name: string; operation: string; timeout: string }[] = [];
  const hook = await startWebhook((body, req, res) => {
    const { request } = JSON.parse(body) as { request: { uid: string; name?: string; operation: string; object?: Labelled; oldObject?: Labelled } };
    calls.push({ name: request.name ?? request.object?.metadata.name ?? '', operation: request.operation, timeout: new URL(req.url ?? '/', 'https://x').searchParams.get('timeout') ?? '' });
    const slow = request.object?.metadata.labels?.slow !== undefined || request.oldObject?.metadata.labels?.slow !== undefined;
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request.uid, allowed: true } }));
    }, slow ? slowMs : 0).unref();
  });
  return { ...hook, url: `${hook.url}/review`, calls };
}

interface Labelled { metadata: { name?: string; labels?: Record<string, string> } }

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function run(s: Send, backend: 'kubekit' | 'reference', server: ServerAccess): Promise<void> {
  const hook = await webhook();
  try {
    // Two namespaces: one whose webhook's failure is ignored (timeout 10 s), one whose webhook's is not (2 s).
    const rules = [{ operations: ['CREATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }, { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/binding', 'pods/eviction'] }];
    const webhookOf = (name: string, failurePolicy: string, timeoutSeconds: number): unknown => ({
      name, clientConfig: { url: hook.url, caBundle: hook.caBundle }, failurePolicy, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds, rules,
      namespaceSelector: { matchLabels: { webhook: failurePolicy } },
    });
    answered(await s('POST', VWC, JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'deadlines' }, webhooks: [webhookOf('ignore.example.com', 'Ignore', 10), webhookOf('fail.example.com', 'Fail', 2)] })), 201);
    for (const policy of ['Ignore', 'Fail']) answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: policy.toLowerCase(), labels: { webhook: policy } } })), 201);
    const path = (ns: string, query = ''): string => `/api/v1/namespaces/${ns}/configmaps${query}`;
    const configMap = (name: string, slow = false): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(slow ? { labels: { slow: 'yes' } } : {}) } });
    await untilInForce(async () => {
      await s('DELETE', `${path('ignore')}/probe`);
      answered(await s('POST', path('ignore'), configMap('probe')), 201);
    }, () => hook.calls.some((c) => c.name === 'probe'));
    hook.calls.length = 0;

    // The timeout sent: the webhook's, or what is left of the request's, rounded up to a second.
    const created = async (ns: string, name: string, query: string): Promise<number> => (await s('POST', path(ns, query), configMap(name))).status;
    expect([
      await created('ignore', 'a', ''), await created('ignore', 'b', '?timeout=5s'), await created('ignore', 'c', '?timeout=4500ms'),
      await created('ignore', 'd', '?timeout=2m'), await created('fail', 'e', '?timeout=5s'), await created('fail', 'f', '?timeout=1s'),
    ]).to.deep.equal([201, 201, 201, 201, 201, 201]);
    expect(hook.calls.map((c) => `${c.name} ${c.timeout}`)).to.deep.equal(['a 10s', 'b 5s', 'c 5s', 'd 10s', 'e 2s', 'f 1s']);

    // A webhook that outlives the request's deadline: 504, and nothing is stored, its failure ignored or not.
    // The webhook's call ends at the same deadline, and the handler goes on to fail at storage: the reference's
    // timeout filter races it (server/filters/timeout.go), and when the handler has written its error first
    // the filter aborts the connection instead (http.ErrAbortHandler). kubekit's 504 always wins.
    const timeoutBody = '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';
    const timedOut = async (method: string, url: string, body?: string): Promise<'timed out' | 'reset' | string> => {
      try {
        const a = await s(method, url, body);
        return a.status === 504 && a.text === timeoutBody ? 'timed out' : `${a.status} ${a.text}`;
      } catch (err) {
        if (backend === 'reference' && /socket hang up|ECONNRESET/.test(String(err))) return 'reset';
        throw err;
      }
    };
    const outcomes = [await timedOut('POST', path('ignore', '?timeout=1s'), configMap('late-1', true)), await timedOut('POST', path('fail', '?timeout=1s'), configMap('late-2', true))];
    // The webhook's own timeout, within the request's: its failure is the answer.
    const cut = await s('POST', path('fail', '?timeout=30s'), configMap('late-3', true));
    expect([cut.status, cut.message]).to.deep.equal([500, `Internal error occurred: failed calling webhook "fail.example.com": failed to call webhook: Post "${hook.url}?timeout=2s": context deadline exceeded`]);

    // A deletion whose webhook outlives the request: the object stays.
    answered(await s('POST', path('ignore'), configMap('kept')), 201);
    answered(await s('PATCH', `${path('ignore')}/kept`, JSON.stringify({ metadata: { labels: { slow: 'yes' } } }), 'application/merge-patch+json'));
    outcomes.push(await timedOut('DELETE', `${path('ignore')}/kept?timeout=1s`));
    // A pod's binding and eviction, the same: the pod is neither bound nor evicted.
    const pods = '/api/v1/namespaces/ignore/pods';
    answered(await s('POST', pods, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } })), 201);
    const slowMeta = { name: 'p', labels: { slow: 'yes' } };
    outcomes.push(await timedOut('POST', `${pods}/p/binding?timeout=1s`, JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: slowMeta, target: { kind: 'Node', name: 'n1' } })));
    outcomes.push(await timedOut('POST', `${pods}/p/eviction?timeout=1s`, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: slowMeta })));
    if (backend === 'kubekit') expect(outcomes).to.deep.equal(['timed out', 'timed out', 'timed out', 'timed out', 'timed out']);
    else for (const outcome of outcomes) expect(outcome).to.be.oneOf(['timed out', 'reset']);

    // Requests their client gives up on after half a second: not created, not deleted.
    const abandon = server.abandoning(500);
    const abandoned = async (method: string, url: string, body?: string): Promise<string> => abandon(method, url, body).then((a) => `answered ${a.status}`, (err: unknown) => (/no answer within/.test(String(err)) ? 'abandoned' : String(err)));
    answered(await s('POST', path('ignore'), configMap('left', true)), 201);
    expect([await abandoned('POST', path('ignore'), configMap('never', true)), await abandoned('DELETE', `${path('ignore')}/left`)]).to.deep.equal(['abandoned', 'abandoned']);

    // Past every webhook's answer: none of the timed-out requests stored anything, and the webhook saw each.
    await sleep(slowMs);
    const names = answered<{ items: Labelled[] }>(await s('GET', path('ignore'))).items.map((o) => o.metadata.name);
    expect([names, answered<{ items: Labelled[] }>(await s('GET', path('fail'))).items.map((o) => o.metadata.name)]).to.deep.equal([['a', 'b', 'c', 'd', 'kept', 'left', 'probe'], ['e', 'f']]);
    expect(hook.calls.slice(6).map((c) => `${c.operation} ${c.name} ${c.timeout}`)).to.deep.equal(['CREATE late-1 1s', 'CREATE late-2 1s', 'CREATE late-3 2s', 'CREATE kept 10s', 'DELETE kept 1s', 'CREATE p 1s', 'CREATE p 1s', 'CREATE left 10s', 'CREATE never 10s', 'DELETE left 10s']);
    const pod = answered<{ metadata: { deletionTimestamp?: string }; spec: { nodeName?: string } }>(await s('GET', `${pods}/p`));
    expect([pod.spec.nodeName, pod.metadata.deletionTimestamp]).to.deep.equal([undefined, undefined]);
  } finally {
    hook.close();
  }
}

describeOnBothServers('admission webhooks under a request\'s deadline and cancellation: the timeout they are sent, and nothing stored after a 504 or once the client has gone, kubekit and the real kube-apiserver', run);
