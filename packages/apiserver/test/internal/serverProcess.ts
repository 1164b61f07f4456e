// A child process running an embedded API server, for tests that need a second CPU or a process
// they can kill. Options come as JSON in argv[2]; prints `READY <url>` once listening and exits when
// its stdin closes (or on a signal).
import { startApiServer, type ApiServerOptions } from '@kubekit/apiserver';

const options = JSON.parse(process.argv[2] ?? '{}') as ApiServerOptions;
const server = await startApiServer(options);
process.stdout.write(`READY ${server.url}\n`);
const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
