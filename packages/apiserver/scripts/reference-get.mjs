// A GET of a reference kube-apiserver's JSON, for the fixture generators.
import { request } from 'node:https';

/** A function that GETs a path of the server at `base` (its bearer token and CA) and resolves its parsed 200 answer. */
export function referenceGetter(base, token, ca) {
  return (path, accept = 'application/json') => new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { ca, headers: { Authorization: `Bearer ${token}`, Accept: accept }, timeout: 60_000 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`GET ${path}: ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}
