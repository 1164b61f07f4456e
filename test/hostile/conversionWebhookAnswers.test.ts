// What a conversion webhook that misbehaves makes of a read, on both servers (kube-apiserver 1.34.4,
// apiextensions-apiserver conversion/webhook_converter.go): a GET without a resourceVersion reads etcd and
// converts anew, so the webhook is called on each and its failure is the answer, in Go's words (client-go's
// `Result.Into`, then `getConvertedObjectsFromResponse`); the call's URL carries the client's 30 s timeout.
// kubekit kept the first conversion of a stored object and answered every later GET with it, however the
// webhook answered since, and worded failures its own way. Every expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';
import { startWebhook } from './webhookServer.js';

const R = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' };

/** The webhook's answer in each mode: a status, a content type and a body, or the connection closed. */
function answer(mode: string, uid: string, converted: unknown[]): [number, string, string] | 'close' {
  const ok = { uid, result: { status: 'Success' }, convertedObjects: converted };
  switch (mode) {
    case 'status-500': return [500, 'text/plain', 'boom'];
    case 'status-404': return [404, 'application/json', '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nope"}'];
    case 'bad-json': return [200, 'application/json', '{not json'];
    case 'empty': return [200, 'application/json', ''];
    case 'closed': return 'close';
    case 'no-response': return [200, 'application/json', JSON.stringify(R)];
    case 'no-kind': return [200, 'application/json', JSON.stringify({ response: ok })];
    case 'other-uid': return [200, 'application/json', JSON.stringify({ ...R, response: { ...ok, uid: 'x' } })];
    case 'text': return [200, 'text/plain', 'ok'];
    case 'failed': return [200, 'application/json', JSON.stringify({ ...R, response: { uid, result: { status: 'Failure', message: 'no way' } } })];
    case 'failed-silently': return [200, 'application/json', JSON.stringify({ ...R, response: { uid, result: { status: 'Failure' } } })];
    case 'objects-string': return [200, 'application/json', JSON.stringify({ ...R, response: { ...ok, convertedObjects: 'x' } })];
    case 'crd-kind': return [200, 'application/json', JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', response: ok })];
    default: return [200, 'application/json', JSON.stringify({ ...R, response: ok })];
  }
}

async function run(s: Send): Promise<void> {
  let mode = 'ok';
  const queries: string[] = [];
  const server = await startWebhook((text, req, res) => {
    queries.push(new URL(req.url ?? '/', 'https://x').search);
    const { request } = JSON.parse(text) as { request: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] } };
    const reply = answer(mode, request.uid, request.objects.map((o) => ({ ...o, apiVersion: request.desiredAPIVersion })));
    if (reply === 'close') {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply[0], reply[1] === '' ? {} : { 'Content-Type': reply[1] });
    res.end(reply[2]);
  });
  const url = `${server.url}/convert`;
  try {
    const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } };
    answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' }, scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v2', served: true, storage: false, schema }],
        conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url, caBundle: server.caBundle } } },
      },
    })), 201);
    const W2 = '/apis/example.com/v2/namespaces/default/widgets';
    for (let i = 0; i < 100 && (await s('GET', W2)).status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    answered(await s('POST', '/apis/example.com/v1/namespaces/default/widgets', JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { a: 'x' } })), 201);

    const modes = ['ok', 'status-500', 'status-404', 'bad-json', 'empty', 'closed', 'no-response', 'no-kind', 'other-uid', 'text', 'failed', 'failed-silently', 'objects-string', 'crd-kind', 'ok'];
    const got: [string, number, string][] = [];
    for (const m of modes) {
      mode = m;
      const a = await s('GET', `${W2}/w`);
      got.push([m, a.status, a.status === 200 ? '' : a.message.replace(url, 'URL').replace(/uid="[0-9a-f-]{36}"/, 'uid="UID"')]);
    }
    const failed = (why: string): string => `conversion webhook for example.com/v1, Kind=Widget failed: ${why}`;
    const typeMeta = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    expect(got).to.deep.equal([
      ['ok', 200, ''],
      ['status-500', 500, failed('an error on the server ("boom") has prevented the request from succeeding')],
      ['status-404', 500, failed('nope')],
      ['bad-json', 500, failed('couldn\'t get version/kind; json parse error: invalid character \'n\' looking for beginning of object key string')],
      ['empty', 500, failed('0-length response with status code: 200 and content type: application/json')],
      ['closed', 500, failed('Post "URL?timeout=30s": EOF')],
      ['no-response', 500, failed('no response provided')],
      ['no-kind', 500, failed('expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=')],
      ['other-uid', 500, failed('expected response.uid="UID", got "x"')],
      ['text', 500, failed(`couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${typeMeta}`)],
      ['failed', 500, failed('no way')],
      ['failed-silently', 500, failed('response.result.status was \'Failure\', not \'Success\'')],
      ['objects-string', 500, failed('json: cannot unmarshal string into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension')],
      ['crd-kind', 500, failed('converting (v1.CustomResourceDefinition) to (v1.ConversionReview): unknown conversion')],
      ['ok', 200, ''],
    ]);
    expect(new Set(queries)).to.deep.equal(new Set(['?timeout=30s']));
  } finally {
    server.close();
  }
}

describeOnBothServers('conversion webhooks that misbehave: each GET converts anew, each failure in Go\'s words, kubekit and the real kube-apiserver', run);
