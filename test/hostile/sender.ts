// One HTTP request to kubekit's embedded server or the real kube-apiserver, answered as status, text and
// the Status message: what the hostile suites compare between the two.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A server's answer: the HTTP status, the body text, and the `message` of a `Status` body. */
export interface Answer { status: number; text: string; message: string }

/** Sends one request; `contentType` defaults to JSON, `accept` to none. */
export type Send = (method: string, path: string, body?: string, contentType?: string, accept?: string) => Promise<Answer>;

/** A {@link Send} for the server at `base` (with the bearer token and CA of the real server). */
export function sender(base: string, token: string | undefined, ca: string | undefined, timeoutMs = 30_000): Send {
  return (method, path, body, contentType = 'application/json', accept) => new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (accept !== undefined) headers.accept = accept;
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const url = new URL(base + path);
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers, ca, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let message = '';
        try {
          message = String((JSON.parse(text) as { message?: unknown }).message ?? '');
        } catch {
          // a watch stream or an empty body
        }
        resolve({ status: res.statusCode ?? 0, text, message });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
