// An HTTPS webhook on 127.0.0.1 for the suites that run webhooks against both servers (admission and conversion):
// its own CA and serving certificate, and the wait for a configuration to be in force on the reference.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateCertificates, type GeneratedCertificates } from '@kubekit/core';

/** A running test webhook. */
export interface TestWebhook {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** The CA of its certificate, as `clientConfig.caBundle` takes it. */
  readonly caBundle: string;
  /** Closes it and every connection it has. */
  close(): void;
}

/**
 * Starts a webhook that gives each request's whole body (text) to `answer`, which answers on `res` (or closes
 * the connection through `req.socket`). `certs`: its certificates. @defaultValue a new CA and certificate for 127.0.0.1
 */
export async function startWebhook(answer: (body: string, req: IncomingMessage, res: ServerResponse) => void, certs: GeneratedCertificates = generateCertificates()): Promise<TestWebhook> {
  const server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(Buffer.concat(chunks).toString('utf8'), req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caBundle: certs.caBundle,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Waits until a webhook configuration just written is in force: the reference reads configurations through an
 * informer, so a request right after the write may not be sent to the webhook yet. `attempt` makes a probe
 * request (again); `seen` tells whether the webhook was called for it. At most 100 attempts, 100 ms apart.
 */
export async function untilInForce(attempt: () => Promise<unknown>, seen: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !seen(); i++) {
    await attempt();
    if (!seen()) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
