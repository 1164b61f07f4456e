/**
 * A TCP proxy on 127.0.0.1 in front of an API server that injects connection faults: it resets every
 * open connection on demand, and while `flaky` it resets each new connection after a random short
 * time. Its upstream can change (a restarted server on another port) while its own address stays.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export class FaultProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private upstreamPort: number;
  /** While true, each new connection is reset after up to `flakyMs` (at random). */
  flaky = false;
  flakyMs = 300;
  /** While true, new connections are reset at once (the server is "down"). */
  down = false;
  /** Connections reset by the proxy so far. */
  resets = 0;
  /** Connections accepted so far. */
  connections = 0;

  constructor(upstreamUrl: string, private readonly random: () => number = Math.random) {
    this.upstreamPort = Number(new URL(upstreamUrl).port);
    this.server = net.createServer((client) => this.accept(client));
  }

  /** `http://127.0.0.1:<port>` once started. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Sends new connections to another server from now on (open ones keep theirs). */
  retarget(upstreamUrl: string): void {
    this.upstreamPort = Number(new URL(upstreamUrl).port);
  }

  /** Resets every open connection (both sides see a reset). Returns how many. */
  resetAll(): number {
    const n = this.pairs.size;
    for (const p of [...this.pairs]) this.reset(p);
    return n;
  }

  /** The number of open connections. */
  get open(): number {
    return this.pairs.size;
  }

  async close(): Promise<void> {
    this.resetAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.connections++;
    if (this.down) {
      this.resets++;
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.upstreamPort, '127.0.0.1');
    const pair = { client, upstream };
    this.pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = (): void => {
      if (!this.pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    if (this.flaky) {
      const timer = setTimeout(() => this.reset(pair), Math.floor(this.random() * this.flakyMs));
      client.on('close', () => clearTimeout(timer));
    }
  }

  private reset(pair: { client: net.Socket; upstream: net.Socket }): void {
    if (!this.pairs.delete(pair)) return;
    this.resets++;
    if (!pair.client.destroyed) pair.client.resetAndDestroy();
    if (!pair.upstream.destroyed) pair.upstream.resetAndDestroy();
  }
}
