// Regression for issue #16: `kubekit serve` had no way to turn the CustomResourceFieldSelectors gate off,
// although the library has it. `--feature-gates` takes kube-apiserver's syntax and messages.
import { expect } from 'chai';
import { exitCodes, runCli } from '@kubekit/cli';
import { kubekit, repoRoot } from './support/kubekit.js';

/** Runs `kubekit serve <args>` until it listens, calls `use(url)`, stops it and returns its exit code. */
async function serving(args: string[], use: (url: string) => Promise<void>): Promise<{ code: number; stderr: string }> {
  const controller = new AbortController();
  let stdout = '';
  let stderr = '';
  let announce: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => (announce = resolve));
  const done = runCli(['serve', ...args], {
    cwd: repoRoot, env: {}, signal: controller.signal,
    stdout: { write: (text: string) => { stdout += text; const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout); if (m !== null) announce(m[1]); } },
    stderr: { write: (text: string) => (stderr += text) },
  });
  const url = await Promise.race([listening, done.then((code) => { throw new Error(`kubekit serve exited ${code}: ${stderr}`); })]);
  try {
    await use(url);
  } finally {
    controller.abort();
  }
  return { code: await done, stderr };
}

const crd = 'examples/shirts/crd/shirts.stable.example.com.yaml';
const blueShirts = '/apis/stable.example.com/v1/namespaces/default/shirts?fieldSelector=spec.color%3Dblue';

describe('serve --feature-gates', function () {
  this.timeout(30_000);

  it('selects on declared fields with the gate on (the default)', async () => {
    const { code } = await serving(['--crd', crd], async (url) => {
      expect((await fetch(url + blueShirts)).status).to.equal(200);
    });
    expect(code).to.equal(0);
  });

  it('drops selectableFields and refuses their field selectors with CustomResourceFieldSelectors=false', async () => {
    const { code, stderr } = await serving(['--feature-gates', 'CustomResourceFieldSelectors=false', '--crd', crd], async (url) => {
      const stored = (await (await fetch(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shirts.stable.example.com`)).json()) as { spec: { versions: { selectableFields?: unknown }[] } };
      expect(stored.spec.versions[0].selectableFields).to.equal(undefined);
      const refused = await fetch(url + blueShirts);
      expect(refused.status).to.equal(400);
      expect(((await refused.json()) as { message: string }).message).to.contain('field label not supported: spec.color');
    });
    expect([code, stderr]).to.deep.equal([0, '']);
  });

  it('refuses unknown gates and values that are not Go booleans, with kube-apiserver\'s words', async () => {
    const unknown = await kubekit(['serve', '--feature-gates', 'CustomResourceFieldSelectors=true,Foo=true']);
    expect([unknown.code, unknown.stderr]).to.deep.equal([exitCodes.usage, 'error: --feature-gates: unrecognized feature gate: Foo (known: CustomResourceFieldSelectors)\n']);
    const bad = await kubekit(['serve', '--feature-gates', 'CustomResourceFieldSelectors=maybe']);
    expect([bad.code, bad.stderr]).to.deep.equal([exitCodes.usage, 'error: --feature-gates: invalid value of CustomResourceFieldSelectors=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax\n']);
    const missing = await kubekit(['serve', '--feature-gates', 'CustomResourceFieldSelectors']);
    expect(missing.stderr).to.equal('error: --feature-gates: missing bool value for CustomResourceFieldSelectors\n');
  });
});
