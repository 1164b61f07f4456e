import { writeFileSync } from 'node:fs';
import { startReferenceApiServer } from '@kubekit/envtest';
import { referenceGetter } from './reference-get.mjs';
const server = await startReferenceApiServer();
const get = referenceGetter(server.url, server.token, server.ca);
try {
  await new Promise((r) => setTimeout(r, 3000));
  for (const r of ['flowschemas', 'prioritylevelconfigurations']) {
    writeFileSync(`/tmp/fcprobe/${r}.json`, JSON.stringify(await get(`/apis/flowcontrol.apiserver.k8s.io/v1/${r}`), null, 1));
    writeFileSync(`/tmp/fcprobe/${r}-table.json`, JSON.stringify(await get(`/apis/flowcontrol.apiserver.k8s.io/v1/${r}`, 'application/json;as=Table;v=v1;g=meta.k8s.io'), null, 1));
  }
  writeFileSync(`/tmp/fcprobe/discovery.json`, JSON.stringify(await get(`/apis/flowcontrol.apiserver.k8s.io/v1`), null, 1));
  writeFileSync(`/tmp/fcprobe/apiservice.json`, JSON.stringify(await get(`/apis/apiregistration.k8s.io/v1/apiservices/v1.flowcontrol.apiserver.k8s.io`), null, 1));
  console.log('ok', server.version);
} finally { await server.close(); }
