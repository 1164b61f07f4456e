// In which order a list's or a watch's options are refused, on both servers (kube-apiserver 1.34.4's
// handlers/get.go): the query is decoded (a selector's syntax is a 400), defaulted and validated (a 422 of
// ListOptions), and only then are the field selector's labels converted (an unknown one is a 400); a continue
// token with a resourceVersion other than "0" is the storage's 400, once the token decodes (its own 400
// first), not a cause of the 422. kubekit converted the labels while decoding and refused a resourceVersion
// with a continue token inside the 422 (hostile differential seed 20261210). The answer's media type is
// negotiated between the 422 and that 400. Every expected answer is the reference's to the same request (the
// reference server runs the same test).
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const C = '/api/v1/namespaces/default/configmaps';
const CRD = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const rvmWithoutRV = 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided';
const unknownLabel = '"spec.a" is not a known field selector: only "metadata.name", "metadata.namespace"';

async function run(s: Send): Promise<void> {
  for (const n of ['lo-a', 'lo-b', 'lo-c']) expect((await s('POST', C, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n } }))).status).to.equal(201);
  const page = JSON.parse((await s('GET', `${C}?limit=1`)).text) as { metadata: { continue: string; resourceVersion: string } };
  const token = encodeURIComponent(page.metadata.continue);
  const rv = page.metadata.resourceVersion;
  const answer = async (path: string): Promise<[number, string]> => {
    const a = await s('GET', path);
    return [a.status, a.status === 200 ? '' : a.message];
  };
  expect(await answer(`${C}?fieldSelector=spec.a%3Dx&resourceVersionMatch=Exact`)).to.deep.equal([422, rvmWithoutRV]);
  expect(await answer(`${CRD}?fieldSelector=spec.a%3Dx&resourceVersionMatch=Exact`)).to.deep.equal([422, rvmWithoutRV]);
  expect(await answer(`${C}?fieldSelector=a%3D%3D%3Db&resourceVersionMatch=Exact`)).to.deep.equal([400, 'invalid field selector: unescaped character in value: 61']);
  expect(await answer(`${C}?fieldSelector=spec.a%3Dx&continue=abc`)).to.deep.equal([400, unknownLabel]);
  const [watchCode, watchMessage] = await answer(`${C}?watch=true&fieldSelector=spec.a%3Dx&resourceVersionMatch=Exact&timeoutSeconds=1`);
  expect([watchCode, watchMessage.startsWith('ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided')]).to.deep.equal([422, true]);
  expect(await answer(`${C}?resourceVersion=${rv}&continue=abc`)).to.deep.equal([400, 'invalid continue token: continue key is not valid: invalid character \'i\' looking for beginning of value']);
  expect(await answer(`${C}?resourceVersion=${rv}&continue=${token}`)).to.deep.equal([400, 'specifying resource version is not allowed when using continue']);
  expect(await answer(`${C}?limit=1&continue=${token}&resourceVersion=1`)).to.deep.equal([400, 'specifying resource version is not allowed when using continue']);
  expect(await answer(`${C}?resourceVersion=0&continue=${token}`)).to.deep.equal([200, '']);
  expect(await answer(`${C}?continue=${token}&resourceVersionMatch=Exact&resourceVersion=${rv}`)).to.deep.equal([422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']);

  // The answer is negotiated after the options are validated and before the field labels are converted: an
  // Accept header the route takes but the handler cannot serve (a conversion it does not have) is a 406 only
  // then. A watch's stream is negotiated later still, once its name matches. kubekit negotiated first.
  const conversion = 'application/json;as=Foo;g=meta.k8s.io;v=v1';
  const negotiated = async (path: string, accept: string): Promise<number> => (await s('GET', path, undefined, undefined, accept)).status;
  expect([
    await negotiated(`${C}?resourceVersionMatch=Exact`, conversion),
    await negotiated(`${C}?limit=x`, conversion),
    await negotiated(`${C}?fieldSelector=spec.a%3Dx`, conversion),
    await negotiated(`${C}?resourceVersionMatch=Exact`, 'application/foo'),
    await negotiated(`${C}?watch=1&fieldSelector=spec.a%3Dx`, 'application/yaml'),
    await negotiated(`${C}?watch=1&resourceVersionMatch=Exact`, 'application/yaml'),
    await negotiated(`${C}?watch=1&timeoutSeconds=1`, 'application/yaml'),
    await negotiated(`${C}?watch=1&resourceVersionMatch=Exact`, conversion),
    await negotiated('/api/v1/watch/namespaces/default/configmaps/lo-a?fieldSelector=metadata.name%3Dlo-b', 'application/yaml'),
    await negotiated('/api/v1/componentstatuses?resourceVersionMatch=Exact', conversion),
    await negotiated('/api/v1/componentstatuses?fieldSelector=spec.a%3Dx', conversion),
    await negotiated('/api/v1/componentstatuses?watch=1&resourceVersionMatch=Exact', conversion),
    await negotiated(`${CRD}?resourceVersionMatch=Exact`, conversion),
  ]).to.deep.equal([422, 400, 406, 406, 400, 422, 406, 422, 400, 422, 406, 422, 422]);
  const status = JSON.parse((await s('GET', `${C}?resourceVersionMatch=Exact`, undefined, undefined, conversion)).text) as { message: string };
  expect(status.message).to.equal(rvmWithoutRV);
}

describeOnBothServers('hostile input: the order in which list options are refused, kubekit and the real kube-apiserver', run);
