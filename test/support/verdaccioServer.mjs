// Runs verdaccio (a local npm registry) for the registry test: storage and users under the directory
// given, on 127.0.0.1 at a free port, which it prints as `listening <port>`. @kubekit/* packages live only
// here (published by the test); every other package is proxied from the uplink (npm's configured
// registry), so a plain `npm install` resolves third-party dependencies as usual.
//
// Usage: node test/support/verdaccioServer.mjs <directory> <uplink registry URL>
import { runServer } from 'verdaccio';

const [dir, uplink] = process.argv.slice(2);
if (!dir || !uplink) {
  process.stderr.write('usage: verdaccioServer.mjs <directory> <uplink registry URL>\n');
  process.exit(2);
}
const app = await runServer({
  self_path: `${dir}/config.yaml`,
  storage: `${dir}/storage`,
  auth: { htpasswd: { file: `${dir}/htpasswd`, max_users: 10 } },
  uplinks: { npmjs: { url: uplink, timeout: '60s', maxage: '30m' } },
  packages: {
    '@kubekit/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
    '**': { access: '$all', publish: '$authenticated', proxy: 'npmjs' },
  },
  server: { keepAliveTimeout: 60 },
  log: { type: 'stdout', format: 'pretty', level: 'error' },
});
app.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${app.address().port}\n`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => app.close(() => process.exit(0)));
