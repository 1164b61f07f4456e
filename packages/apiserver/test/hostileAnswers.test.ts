// Issue 15, findings 3, 4 and 6: the apiserver's answers to hostile request data. Each case cites the
// upstream source it follows (k8s.io/apiserver and k8s.io/apimachinery v0.34).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { expectPristinePrototypes, widgetCRD, widgets } from './internal/hostile.js';

const widget = (name: string, data: unknown = {}): Record<string, unknown> => ({ apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name }, spec: { data } });

describe('hostile input: the apiserver\'s answers', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
  });

  after(async () => {
    await server.close();
    expectPristinePrototypes();
  });

  describe('dryRun in a DELETE body (handlers/delete.go DeleteResource: options come from the body when there is one)', () => {
    it('keeps the object for {"kind":"DeleteOptions","dryRun":["All"]} and answers as the deletion would', async () => {
      expect((await client.post(widgets(), widget('dry'))).status).to.equal(201);
      const res = await client.delete(`${widgets()}/dry`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
      expect(res.status, res.text).to.equal(200);
      expect((await client.get(`${widgets()}/dry`)).status).to.equal(200);
      const coll = await client.request('DELETE', widgets(), { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
      expect(coll.status, coll.text).to.equal(200);
      expect((await client.get(`${widgets()}/dry`)).status).to.equal(200);
    });

    it('answers an unsupported dryRun value with 422 on DeleteOptions (ValidateDeleteOptions → ValidateDryRun)', async () => {
      const res = await client.delete(`${widgets()}/dry`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['Some'] });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Some"]: supported values: "All"');
      const q = await client.delete(`${widgets()}/dry?dryRun=Some`);
      expect(q.status, q.text).to.equal(422);
      const pp = await client.delete(`${widgets()}/dry`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Sideways' });
      expect(pp.status, pp.text).to.equal(422);
      expect(pp.body.message).to.equal('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
      expect((await client.get(`${widgets()}/dry`)).status).to.equal(200);
    });

    it('still deletes for real without dryRun, and honours dryRun in the query when there is no body', async () => {
      expect((await client.delete(`${widgets()}/dry?dryRun=All`)).status).to.equal(200);
      expect((await client.get(`${widgets()}/dry`)).status).to.equal(200);
      expect((await client.delete(`${widgets()}/dry`, { kind: 'DeleteOptions', apiVersion: 'v1' })).status).to.equal(200);
      expect((await client.get(`${widgets()}/dry`)).status).to.equal(404);
    });
  });

  describe('nesting (encoding/json scanner.go maxNestingDepth, go-yaml max_flow_level: 10,000 levels)', () => {
    const nested = (n: number, open = '{"a":', close = '}'): string => open.repeat(n) + '1' + close.repeat(n);
    const arrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    // The body's own object is level 1 and spec.data level 3: data nesting n makes n + 2 levels.
    const createBody = (n: number, name: string): string => `{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":{"data":${nested(n)}}}`;

    before(async () => {
      expect((await client.post(widgets(), widget('deep'))).status).to.equal(201);
    });

    it('answers create and update nested past 10,000 levels with the object decoder\'s 400 (transformDecodeError)', async () => {
      const body = createBody(10_000, 'too-deep');
      const res = await client.request('POST', widgets(), body);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.message).to.equal(`the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth (${body.slice(0, 30)} ...)`);
      const put = await client.request('PUT', `${widgets()}/deep`, body.replace('too-deep', 'deep'));
      expect(put.status, put.text).to.equal(400);
      expect(put.body.message).to.match(/^the object provided is unrecognized \(must be of type Widget\): couldn't get version\/kind; json parse error: invalid character '\{' exceeded max depth/);
      const yaml = await client.request('POST', widgets(), `apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: y\nspec:\n  data: ${arrays(10_001)}\n`, 'application/yaml');
      expect(yaml.status, yaml.text).to.equal(400);
      expect(yaml.body.message).to.match(/^the object provided is unrecognized \(must be of type Widget\): yaml: line 6: exceeded max depth of 10000 \([0-9a-f]{60} \.\.\.\)$/);
    });

    it('answers every patch type nested past 10,000 levels with its decoder\'s 400 (handlers/patch.go)', async () => {
      const deep = nested(10_001);
      const cases: [string, string, string][] = [
        ['application/merge-patch+json', `{"spec":{"data":${deep}}}`, 'error decoding patch: invalid character \'{\' exceeded max depth'],
        ['application/json-patch+json', `[{"op":"add","path":"/spec/data/x","value":${deep}}]`, 'error decoding patch: invalid character \'{\' exceeded max depth'],
        ['application/apply-patch+yaml', `{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"deep"},"spec":{"data":${deep}}}`, 'error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of 10000'],
      ];
      for (const [ct, body, message] of cases) {
        const res = await client.request('PATCH', `${widgets()}/deep?fieldManager=m`, body, ct);
        expect(res.status, `${ct}: ${res.text.slice(0, 300)}`).to.equal(400);
        expect(res.body.message, ct).to.equal(message);
      }
      const ignore = await client.request('PATCH', `${widgets()}/deep?fieldValidation=Ignore`, `{"spec":{"data":${deep}}}`, 'application/merge-patch+json');
      expect(ignore.body.message).to.equal('Invalid JSON Patch');
      expect((await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'deep' } })).status).to.equal(201);
      const smp = await client.request('PATCH', '/api/v1/namespaces/default/configmaps/deep', `{"metadata":{"annotations":${deep}}}`, 'application/strategic-merge-patch+json');
      expect(smp.status, smp.text.slice(0, 300)).to.equal(400);
      expect(smp.body.message).to.equal('invalid character \'{\' exceeded max depth');
    });

    it('never answers 5xx nor overflows its stack at any depth up to and past the limit, on any write', async () => {
      for (const n of [100, 997, 998, 1500, 3000, 9_997, 9_998, 20_000]) {
        // [method, path, body, content type, how deep the body nests, how deep the result nests]
        const attempts: [string, string, string, string, number, number][] = [
          ['POST', widgets(), createBody(n, `d${n}`), 'application/json', n + 2, n + 2],
          ['POST', widgets(), `{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"a${n}"},"spec":{"data":{"x":${arrays(n)}}}}`, 'application/json', n + 3, n + 3],
          ['PUT', `${widgets()}/deep`, createBody(n, 'deep'), 'application/json', n + 2, n + 2],
          ['PATCH', `${widgets()}/deep`, `{"spec":{"data":${nested(n)}}}`, 'application/merge-patch+json', n + 2, n + 2],
          ['PATCH', `${widgets()}/deep`, `[{"op":"add","path":"/spec/data/z","value":${nested(n)}}]`, 'application/json-patch+json', n + 2, n + 3],
          ['PATCH', `${widgets()}/deep?fieldManager=m`, createBody(n, 'deep'), 'application/apply-patch+yaml', n + 2, n + 2],
          ['PATCH', `${widgets()}/deep/status`, `{"status":{"x":${nested(n)}}}`, 'application/merge-patch+json', n + 2, n + 2],
          ['PATCH', '/api/v1/namespaces/default/configmaps/deep', `{"data":{"k":"v"},"metadata":{"labels":${nested(n)}}}`, 'application/strategic-merge-patch+json', n + 2, n + 2],
        ];
        for (const [method, path, body, ct, depth, result] of attempts) {
          const res = await client.request(method, path, body, ct);
          const what = `${method} ${path} ${ct} at ${n}: ${res.text.slice(0, 300)}`;
          expect(res.status, what).to.be.below(500);
          // Bodies past 10,000 levels: the decoders' 400; results past it: the patch's 422. A PUT without
          // a resourceVersion (422), labels that are not strings (400) and server-side apply deeper than
          // its recursion reaches (400) fail whatever the depth.
          if (depth > 10_000) expect(res.status, what).to.equal(400);
          else if (result > 10_000) expect(res.status, what).to.equal(422);
          else if (method !== 'PUT' && !path.includes('configmaps') && !(ct.includes('apply') && n > 1500)) expect(res.status, what).to.be.within(200, 201);
        }
      }
      // A JSON patch that nests the document into itself past the limit.
      const grow = Array.from({ length: 12 }, () => ({ op: 'copy', from: '/spec', path: '/spec/data/again' }));
      const res = await client.patch(`${widgets()}/deep`, grow, 'json');
      expect(res.status, res.text.slice(0, 300)).to.equal(422);
      const list = await client.get(widgets());
      expect(list.status).to.equal(200);
    });
  });

  describe('server-side apply on subresources (found by the fuzz test)', () => {
    it('answers 404 for apply to the status or scale of an object that does not exist, creating nothing (StatusREST.Update: forceAllowCreate=false)', async () => {
      for (const sub of ['status', 'scale']) {
        const res = await client.request('PATCH', `${widgets()}/ghost/${sub}?fieldManager=m`, JSON.stringify(widget('ghost')), 'application/apply-patch+yaml');
        expect(res.status, `${sub}: ${res.text}`).to.equal(404);
      }
      expect((await client.get(`${widgets()}/ghost`)).status).to.equal(404);
    });

    it('applies a Scale to the scale subresource of a custom resource as kube-apiserver 1.34.4 does: a conflict, then its 500 for a change', async () => {
      expect((await client.post(widgets(), widget('scaled'))).status).to.equal(201);
      const scale = '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"scaled"},"spec":{"replicas":7}}';
      // The creator owns the (defaulted) replicas: the apply conflicts; forced, the field manager of the
      // custom resource's scale scope converts the applied Scale with the custom resource's converter, which
      // refuses autoscaling/v1: a 500 on a cluster, and here too, so that an operator does not learn it there
      // (test/hostile/scaleSubresource.test.ts runs the same on both servers).
      const conflict = await client.request('PATCH', `${widgets()}/scaled/scale?fieldManager=m`, scale, 'application/apply-patch+yaml');
      expect(conflict.status, conflict.text).to.equal(409);
      expect(conflict.body.message).to.equal('Apply failed with 1 conflict: conflict with "node" using autoscaling/v1: .spec.replicas');
      const res = await client.request('PATCH', `${widgets()}/scaled/scale?fieldManager=m&force=true`, scale, 'application/apply-patch+yaml');
      expect(res.status, res.text).to.equal(500);
      expect(res.body.message).to.equal('failed to convert new object (/scaled; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1');
      expect((await client.get(`${widgets()}/scaled`)).body.spec.replicas).to.not.equal(7);
    });
  });

  describe('query parameters (runtime.Convert_Slice_string_To_int64: strconv.ParseInt; DecodeParameters errors are 400)', () => {
    it('answers limit=99999999999999999999999 with 400 "value out of range" and limit=abc with "invalid syntax"', async () => {
      const big = await client.get(`${widgets()}?limit=99999999999999999999999`);
      expect(big.status, big.text).to.equal(400);
      expect(big.body.message).to.equal('strconv.ParseInt: parsing "99999999999999999999999": value out of range');
      const abc = await client.get(`${widgets()}?limit=abc`);
      expect(abc.status).to.equal(400);
      expect(abc.body.message).to.equal('strconv.ParseInt: parsing "abc": invalid syntax');
      expect((await client.get(`${widgets()}?limit=9223372036854775807`)).status).to.equal(200);
      expect((await client.get(`${widgets()}?limit=-1`)).status).to.equal(200);
    });

    it('answers watch timeoutSeconds=abc with 400, and ends a watch with timeoutSeconds=-1 at once (handlers/get.go: a negative timeout)', async () => {
      const bad = await client.watch(`${widgets()}?watch=true&timeoutSeconds=abc`);
      expect(bad.status).to.equal(400);
      expect((bad.events[0].object as unknown as { message: string }).message).to.equal('strconv.ParseInt: parsing "abc": invalid syntax');
      const neg = await client.watch(`${widgets()}?watch=true&timeoutSeconds=-1`);
      expect(neg.status).to.equal(200);
      await neg.end(10_000);
      expect(neg.events).to.deep.equal([]);
      const list = await client.get(`${widgets()}?timeoutSeconds=1.5`);
      expect(list.status).to.equal(400);
    });

    it('answers metadata.resourceVersion "abc" on PUT with a 422 parse error on metadata.resourceVersion (APIObjectVersioner: strconv.ParseUint)', async () => {
      const created = await client.post(widgets(), widget('rv'));
      expect(created.status).to.equal(201);
      const res = await client.put(`${widgets()}/rv`, { ...widget('rv'), metadata: { name: 'rv', resourceVersion: 'abc' } });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal('Widget.hostile.example.com "rv" is invalid: metadata.resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax');
      const huge = await client.patch(`${widgets()}/rv`, { metadata: { resourceVersion: '18446744073709551616' } });
      expect(huge.status, huge.text).to.equal(422);
      expect(huge.body.message).to.include('strconv.ParseUint: parsing "18446744073709551616": value out of range');
      expect((await client.get(`${widgets()}/rv`)).body.metadata.resourceVersion).to.equal(created.body.metadata.resourceVersion);
    });
  });
});
