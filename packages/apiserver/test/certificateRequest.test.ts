// The PEM and DER reading of CertificateSigningRequests (src/internal/certificateRequest.ts): Go's pem.Decode
// cases (encoding/pem's pem_test.go: text around a block, headers, a block without its END line, a body that is
// not base64 skipped for the next block), x509's words for requests that do not parse or verify, and the
// status certificate's rules. The both-server suite (test/hostile/certificateSigningRequests.test.ts) checks the
// same words against kube-apiserver 1.34.4.
import { expect } from 'chai';
import fc from 'fast-check';
import { certificateError, decodePem, parseCertificateRequest } from '../src/internal/certificateRequest.js';
import { certificate, ecRequest, ed25519Request, rsaRequest } from './fixtures/certificateRequests.js';

const derOf = (pem: string): Buffer => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
const requestPem = (der: Buffer): Buffer => Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);

describe('decodePem', () => {
  it('finds the first block past other text, with its headers', () => {
    const decoded = decodePem(`junk\n-----BEGIN X-----\nA: b\nC:  d \n\naGk=\n-----END X-----\nrest`);
    expect(decoded?.block).to.deep.equal({ type: 'X', headers: [['A', 'b'], ['C', 'd']], bytes: Buffer.from('hi') });
    expect(decoded?.rest).to.equal('rest');
  });

  it('skips a block whose body is not base64, or without its END line, for the next one', () => {
    expect(decodePem('-----BEGIN X-----\n!!\n-----END X-----\n-----BEGIN Y-----\naGk=\n-----END Y-----\n')?.block.type).to.equal('Y');
    expect(decodePem('-----BEGIN X-----\naGk=\n')).to.equal(undefined);
    expect(decodePem('no block here')).to.equal(undefined);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
      decodePem(`${a}\n-----BEGIN ${b}-----\n${a}\n-----END ${b}-----\n`);
    }));
  });
});

describe('parseCertificateRequest', () => {
  it('reads the subject organizations of requests signed with ECDSA, RSA and Ed25519', () => {
    expect(parseCertificateRequest(Buffer.from(ecRequest))).to.deep.equal({ organizations: ['system:masters'] });
    expect(parseCertificateRequest(Buffer.from(rsaRequest))).to.deep.equal({ organizations: ['dev'] });
    expect(parseCertificateRequest(Buffer.from(ed25519Request))).to.deep.equal({ organizations: [] });
  });

  it('refuses a block of another type, a bad signature, and malformed DER in Go\'s words', () => {
    expect(parseCertificateRequest(Buffer.from(certificate))).to.deep.equal({ error: 'PEM block type must be CERTIFICATE REQUEST' });
    const flipped = (pem: string): Buffer => {
      const der = derOf(pem);
      der[der.length - 5] ^= 0xff;
      return requestPem(der);
    };
    expect(parseCertificateRequest(flipped(ecRequest))).to.deep.equal({ error: 'x509: ECDSA verification failure' });
    expect(parseCertificateRequest(flipped(rsaRequest))).to.deep.equal({ error: 'crypto/rsa: verification error' });
    expect(parseCertificateRequest(flipped(ed25519Request))).to.deep.equal({ error: 'x509: Ed25519 verification failure' });
    const der = derOf(ecRequest);
    expect(parseCertificateRequest(requestPem(Buffer.concat([der, Buffer.from([0])])))).to.deep.equal({ error: 'asn1: syntax error: trailing data' });
    expect(parseCertificateRequest(requestPem(der.subarray(0, 40)))).to.deep.equal({ error: 'asn1: syntax error: data truncated' });
    expect(parseCertificateRequest(requestPem(Buffer.alloc(0)))).to.deep.equal({ error: 'asn1: syntax error: sequence truncated' });
  });

  it('never throws on arbitrary DER', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const result = parseCertificateRequest(requestPem(Buffer.from(bytes)));
      expect(result).to.have.property('error').that.is.a('string');
    }));
  });
});

describe('certificateError', () => {
  it('takes nothing, or CERTIFICATE blocks without headers holding certificates', () => {
    expect(certificateError(Buffer.alloc(0))).to.equal(undefined);
    expect(certificateError(Buffer.from(certificate + certificate))).to.equal(undefined);
    expect(certificateError(Buffer.from('garbage'))).to.equal('must contain at least one CERTIFICATE PEM block');
    expect(certificateError(Buffer.from(certificate + ecRequest))).to.equal('only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"');
    expect(certificateError(Buffer.from(certificate.replace('-----\n', '-----\nA: b\n\n')))).to.equal('no PEM block headers are permitted');
    expect(certificateError(Buffer.from('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n'))).to.equal('found CERTIFICATE PEM block containing 0 certificates');
    expect(certificateError(Buffer.from('-----BEGIN CERTIFICATE-----\nZ2FyYmFnZQ==\n-----END CERTIFICATE-----\n'))).to.equal('x509: malformed certificate');
  });
});
