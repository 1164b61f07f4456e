// The soak test's API server, in a process of its own so that the operator's heap and handles are
// measured alone and a restart is a real one: the embedded API server with a data directory, on a
// given port. Prints one JSON line `{"url": …}` once listening; closes cleanly on SIGTERM.
import { startApiServer } from '@kubekit/apiserver';

const [dataDir, port] = [process.argv[2], Number(process.argv[3] ?? 0)];
if (!dataDir) {
  process.stderr.write('usage: server.ts <dataDir> [port]\n');
  process.exit(2);
}
const server = await startApiServer({ dataDir, port, bookmarkIntervalMs: 5_000 });
process.stdout.write(`${JSON.stringify({ url: server.url, port: server.port })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
