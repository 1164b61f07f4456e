/** Test helpers around an API server (embedded or real): a JSON client, CRD setup, a conversion webhook. */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseJSON, stringifyJSON, type KubeList, type KubeObject } from '@kubekit/core';
import { untilAsync } from './until.js';

export const tls = (name: string): string => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url), 'utf8');

export function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
}

/** How to reach a server that needs TLS and a token (the real kube-apiserver of @kubekit/envtest). */
export interface KubeAuth {
  token?: string;
  /** The CA (PEM) of an https server. */
  ca?: string;
}

/** A JSON client of one server. */
export class Kube {
  constructor(readonly baseUrl: string, private readonly auth: KubeAuth = {}) {}

  request<T = unknown>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply<T>> {
    const url = new URL(this.baseUrl + path);
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['Content-Type'] = contentType;
    if (this.auth.token !== undefined) headers.Authorization = `Bearer ${this.auth.token}`;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method, headers, ca: this.auth.ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          // Not every answer is JSON: Go's mux answers "404 page not found" for a resource not served yet.
          let body: unknown = text === '' ? undefined : text;
          try {
            if (text !== '') body = parseJSON(text);
          } catch {
            // Keep the text.
          }
          resolve({ status: res.statusCode ?? 0, body: body as T });
        });
      });
      req.on('error', reject);
      if (body !== undefined) req.write(stringifyJSON(body));
      req.end();
    });
  }

  async ok<T = KubeObject>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const r = await this.request<T>(method, path, body, contentType);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async list<T extends KubeObject = KubeObject>(path: string, fieldSelector = '', labelSelector = ''): Promise<T[]> {
    const q = new URLSearchParams();
    if (fieldSelector) q.set('fieldSelector', fieldSelector);
    if (labelSelector) q.set('labelSelector', labelSelector);
    const list = await this.ok<KubeList<T>>('GET', `${path}?${q}`);
    return list.items;
  }

  /** Creates a CRD and waits until its resource is served (and, on a real apiserver, Established). */
  async createCRD(server: { idle(): Promise<void> }, crd: KubeObject & { spec: { group: string; versions: { name: string }[]; names: { plural: string } } }): Promise<void> {
    await this.ok('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    await server.idle();
    for (const v of crd.spec.versions) {
      const path = `/apis/${crd.spec.group}/${v.name}/${crd.spec.names.plural}`;
      await untilAsync(async () => (await this.request('GET', path)).status === 200, `${path} served`, 60_000);
    }
    await untilAsync(async () => {
      const got = await this.request<{ status?: { conditions?: { type: string; status: string }[] } }>('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
      return (got.body.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
    }, `${crd.metadata.name} established`, 60_000);
  }
}

/** A conversion webhook renaming `spec.color` (v1) ⇄ `spec.hue` (v1beta1), as the upstream test's. */
export async function startConversionWebhook(group: string): Promise<{ server: Server; url: string; caBundle: string }> {
  const server = createServer({ key: tls('server.key'), cert: tls('server.crt') }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };
      const desired = review.request.desiredAPIVersion;
      const converted = review.request.objects.map((o) => {
        const spec = { ...(o.spec as Record<string, unknown>) };
        if (o.apiVersion === `${group}/v1beta1` && desired === `${group}/v1`) {
          spec.color = spec.hue;
          delete spec.hue;
        } else if (o.apiVersion === `${group}/v1` && desired === `${group}/v1beta1`) {
          spec.hue = spec.color;
          delete spec.color;
        }
        return { ...o, apiVersion: desired, spec };
      });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: review.request.uid, convertedObjects: converted, result: { status: 'Success' } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/convert`, caBundle: Buffer.from(tls('ca.crt')).toString('base64') };
}

/** A namespaced `Shirt` CRD in `group` (v1) whose `spec.color` is a selectable field: the informer tests' custom resource. */
export function shirtsCRD(group: string): KubeObject & { spec: { group: string; versions: { name: string }[]; names: { plural: string } } } {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `shirts.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } } },
        selectableFields: [{ jsonPath: '.spec.color' }],
      }],
    },
  } as KubeObject & { spec: { group: string; versions: { name: string }[]; names: { plural: string } } };
}
