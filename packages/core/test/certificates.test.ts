// The development certificates of @kubekit/core (webhooks and the embedded API server's https):
// checked with node:crypto's X509Certificate, and end to end by Go's verifier where
// examples/shirt-versions runs against the reference kube-apiserver.
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { generateCertificates } from '@kubekit/core';

describe('generateCertificates', () => {
  it('makes a CA and a serving certificate for 127.0.0.1 and localhost that verifies against it', () => {
    const now = new Date(Date.UTC(2026, 0, 1));
    const certs = generateCertificates({ now, validityDays: 10 });
    const ca = new X509Certificate(certs.caCert);
    const leaf = new X509Certificate(certs.cert);
    expect(ca.ca).to.equal(true);
    expect(leaf.ca).to.equal(false);
    expect(leaf.verify(ca.publicKey)).to.equal(true);
    expect(leaf.checkIssued(ca)).to.equal(true);
    expect(leaf.checkIP('127.0.0.1')).to.equal('127.0.0.1');
    expect(leaf.checkHost('localhost')).to.equal('localhost');
    expect(leaf.subjectAltName).to.equal('IP Address:127.0.0.1, DNS:localhost');
    expect(leaf.keyUsage).to.deep.equal(['1.3.6.1.5.5.7.3.1']);
    expect(new Date(leaf.validTo).getTime()).to.equal(now.getTime() + 10 * 86_400_000);
    expect(Buffer.from(certs.caBundle, 'base64').toString('utf8')).to.equal(certs.caCert);
  });

  it('names IPv6 addresses and service DNS names in subjectAltName', () => {
    const leaf = new X509Certificate(generateCertificates({ hosts: ['::1', 'shirts-webhook.default.svc'] }).cert);
    expect(leaf.checkIP('::1')).to.equal('::1');
    expect(leaf.checkHost('shirts-webhook.default.svc')).to.equal('shirts-webhook.default.svc');
    expect(leaf.subject).to.equal('CN=::1');
  });

  it('names the CA kubekit-webhook-ca unless told otherwise', () => {
    expect(new X509Certificate(generateCertificates().caCert).subject).to.equal('CN=kubekit-webhook-ca');
    const certs = generateCertificates({ caCommonName: 'kubekit-apiserver-ca' });
    expect(new X509Certificate(certs.caCert).subject).to.equal('CN=kubekit-apiserver-ca');
    expect(new X509Certificate(certs.cert).issuer).to.equal('CN=kubekit-apiserver-ca');
  });

  it('refuses hosts that are neither IP addresses nor DNS names', () => {
    expect(() => generateCertificates({ hosts: [] })).to.throw(/hosts must name at least one/);
    expect(() => generateCertificates({ hosts: ['bad host'] })).to.throw('generateCertificates: host "bad host" is neither an IP address nor a DNS name');
  });
});
