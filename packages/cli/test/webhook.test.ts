import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from '@kubekit/crd';
import { validateCustomResourceDefinition } from '@kubekit/crd';
import { exitCodes } from '@kubekit/cli';
import { kubekit } from './support/kubekit.js';

describe('kubekit webhook', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubekit-webhook-cli-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('certs', () => {
    it('writes a CA and a serving certificate for 127.0.0.1 and localhost', async () => {
      const result = await kubekit(['webhook', 'certs', '--out', dir]);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout.trim().split('\n').map((l) => l.split('/').pop())).to.deep.equal(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
      const ca = new X509Certificate(readFileSync(join(dir, 'ca.crt')));
      const leaf = new X509Certificate(readFileSync(join(dir, 'tls.crt')));
      expect(leaf.verify(ca.publicKey)).to.equal(true);
      expect(leaf.subjectAltName).to.equal('IP Address:127.0.0.1, DNS:localhost');
      expect(statSync(join(dir, 'tls.key')).mode & 0o777).to.equal(0o600);
    });

    it('takes hosts and a validity, and names a bad host', async () => {
      expect((await kubekit(['webhook', 'certs', '--out', dir, '--host', 'shirts.shop.svc', '--days', '2'])).code).to.equal(0);
      expect(new X509Certificate(readFileSync(join(dir, 'tls.crt'))).subjectAltName).to.equal('DNS:shirts.shop.svc');
      const bad = await kubekit(['webhook', 'certs', '--out', dir, '--host', 'no spaces']);
      expect(bad.code).to.equal(exitCodes.usage);
      expect(bad.stderr).to.include('host "no spaces" is neither an IP address nor a DNS name');
      expect((await kubekit(['webhook', 'certs', '--out', dir, '--days', 'soon'])).stderr).to.include('--days "soon": expected a whole number of days');
    });
  });

  describe('config', () => {
    it('prints Mutating- and ValidatingWebhookConfigurations for the kinds of modules, with the apiserver defaults spelled out', async () => {
      await kubekit(['webhook', 'certs', '--out', dir]);
      const result = await kubekit(['webhook', 'config', 'modules/shirtVersions.ts', '--url', 'https://127.0.0.1:9443', '--ca-bundle-file', join(dir, 'ca.crt')]);
      expect(result.code, result.stderr).to.equal(0);
      const docs = parseAllDocuments(result.stdout).map((d) => d.toJS() as Record<string, unknown>);
      const caBundle = readFileSync(join(dir, 'ca.crt')).toString('base64');
      const rule = { operations: ['CREATE', 'UPDATE'], apiGroups: ['versions.example.com'], apiVersions: ['v1', 'v1beta1'], resources: ['shirts'], scope: 'Namespaced' };
      const common = { rules: [rule], failurePolicy: 'Fail', matchPolicy: 'Equivalent', sideEffects: 'None', timeoutSeconds: 10, admissionReviewVersions: ['v1'] };
      expect(docs).to.deep.equal([
        {
          apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'shirts.versions.example.com' },
          webhooks: [{ name: 'mutate.shirts.versions.example.com', clientConfig: { url: 'https://127.0.0.1:9443/mutate', caBundle }, ...common, reinvocationPolicy: 'Never' }],
        },
        {
          apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'shirts.versions.example.com' },
          webhooks: [{ name: 'validate.shirts.versions.example.com', clientConfig: { url: 'https://127.0.0.1:9443/validate', caBundle }, ...common }],
        },
      ]);
    });

    it('uses a service reference, one kind of configuration, and other operations', async () => {
      const result = await kubekit(['webhook', 'config', 'modules/shirtVersions.ts', '--service', 'shop/shirts-webhook:9443', '--validate', '--operations', 'create,delete', '--failure-policy', 'Ignore']);
      expect(result.code, result.stderr).to.equal(0);
      const [doc] = parseAllDocuments(result.stdout).map((d) => d.toJS() as { kind: string; webhooks: { clientConfig: unknown; rules: { operations: string[] }[]; failurePolicy: string }[] });
      expect(doc.kind).to.equal('ValidatingWebhookConfiguration');
      expect(doc.webhooks[0].clientConfig).to.deep.equal({ service: { namespace: 'shop', name: 'shirts-webhook', port: 9443, path: '/validate' } });
      expect(doc.webhooks[0].rules[0].operations).to.deep.equal(['CREATE', 'DELETE']);
      expect(doc.webhooks[0].failurePolicy).to.equal('Ignore');
    });

    it('says what is missing or malformed', async () => {
      expect((await kubekit(['webhook', 'config', 'modules/shirtVersions.ts'])).stderr).to.include('say where the webhook server is: --url https://host:port or --service namespace/name[:port]');
      expect((await kubekit(['webhook', 'config', 'modules/shirtVersions.ts', '--service', 'nope'])).stderr).to.include('--service "nope": expected namespace/name or namespace/name:port');
      expect((await kubekit(['webhook', 'config', 'modules/shirtVersions.ts', '--url', 'https://x', '--operations', 'PATCH'])).stderr).to.include('unsupported operation "PATCH"');
      expect((await kubekit(['webhook', 'config', 'modules/shirtVersions.ts', '--url', 'https://x', '--timeout-seconds', '31'])).stderr).to.include('timeoutSeconds must be between 1 and 30 seconds, got 31');
    });
  });
});

describe('kubekit crd generate with a hub-and-spoke conversion', () => {
  it('emits the Webhook conversion stanza and both versions\' schemas and selectable fields', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubekit-conv-'));
    try {
      writeFileSync(join(dir, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      const result = await kubekit(['crd', 'generate', 'modules/shirtVersions.ts', '--conversion-webhook-service', 'shop/shirts-webhook', '--ca-bundle-file', join(dir, 'ca.crt')]);
      expect(result.code, result.stderr).to.equal(0);
      const crd = parse(result.stdout) as CustomResourceDefinition;
      expect(validateCustomResourceDefinition(crd)).to.deep.equal([]);
      expect(crd.spec.conversion).to.deep.equal({
        strategy: 'Webhook',
        webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'shop', name: 'shirts-webhook', path: '/convert', port: 443 }, caBundle: readFileSync(join(dir, 'ca.crt')).toString('base64') } },
      });
      expect(crd.spec.versions.map((v) => [v.name, v.selectableFields])).to.deep.equal([['v1', [{ jsonPath: '.spec.color' }]], ['v1beta1', [{ jsonPath: '.spec.hue' }]]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which flag is missing when a kind declares a conversion but no webhook is given', async () => {
    const result = await kubekit(['crd', 'generate', 'modules/shirtVersions.ts']);
    expect(result.code).to.equal(exitCodes.failure);
    expect(result.stderr).to.include('* hubAndSpokeConversion(ShirtV1) with the conversionWebhook option (kubekit crd generate --conversion-webhook-url or --conversion-webhook-service): spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook');
  });

  it('takes a URL', async () => {
    const result = await kubekit(['crd', 'generate', 'modules/shirtVersions.ts', '--conversion-webhook-url', 'https://127.0.0.1:9443/convert']);
    expect(result.code, result.stderr).to.equal(0);
    expect((parse(result.stdout) as CustomResourceDefinition).spec.conversion?.webhook?.clientConfig).to.deep.equal({ url: 'https://127.0.0.1:9443/convert' });
  });
});
