import { writeFileSync } from 'node:fs';
import { startApiServer } from '@kubekit/apiserver';
const s = await startApiServer({ port: 38999, logger: { info: (m: string) => console.log(m), warn: console.log, error: console.log, debug() {}, child() { return this as never; } } as never });
writeFileSync('/tmp/ks/kubeconfig', s.kubeconfig);
console.log('ready', s.url);
