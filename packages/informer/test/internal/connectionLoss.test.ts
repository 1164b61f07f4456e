// Which errors are a connection that broke under a response (apimachinery pkg/util/net/http.go
// IsProbableEOF: io.EOF, io.ErrUnexpectedEOF, "connection reset by peer", "use of closed network
// connection", a write on a broken connection), in Node's terms; everything else stays a failure.
import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import { connectionLoss, explainFailure } from '../../src/internal/connectionLoss.js';
import { IdleTimeoutError } from '../../src/internal/restClient.js';

const nodeError = (message: string, extra: Record<string, unknown>): Error => Object.assign(new Error(message), extra);

describe('connectionLoss', () => {
  const losses: [Error, string, string][] = [
    [nodeError('aborted', { code: 'ECONNRESET' }), 'ECONNRESET', 'was closed by the server or a proxy'],
    [nodeError('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }), 'ECONNRESET', 'was reset'],
    [nodeError('socket hang up', { code: 'ECONNRESET' }), 'ECONNRESET', 'was closed by the server or a proxy'],
    [nodeError('Premature close', { code: 'ERR_STREAM_PREMATURE_CLOSE' }), 'ERR_STREAM_PREMATURE_CLOSE', 'closed before its response ended'],
    [nodeError('write EPIPE', { code: 'EPIPE', syscall: 'write' }), 'EPIPE', 'broke'],
    [nodeError('write ECONNABORTED', { code: 'ECONNABORTED', syscall: 'write' }), 'ECONNABORTED', 'broke'],
  ];
  for (const [err, code, how] of losses) {
    it(`does see a broken connection in "${err.message}" (${code})`, () => {
      expect(connectionLoss(err)).to.deep.equal({ code, how });
    });
  }

  const failures: [string, unknown][] = [
    ['an idle timeout', new IdleTimeoutError(1000)],
    ['a socket timeout', nodeError('read ETIMEDOUT', { code: 'ETIMEDOUT', syscall: 'read' })],
    ['a refused connection', nodeError('connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED', syscall: 'connect' })],
    ['an HTTP parse error', nodeError('Parse Error: Invalid header value char', { code: 'HPE_INVALID_HEADER_TOKEN' })],
    ['an abort', new DOMException('This operation was aborted', 'AbortError')],
    ['a KubeError', new KubeError('InternalError', 'unable to decode an event from the watch stream: x')],
    ['an error without a code', new Error('aborted')],
    ['a thrown string', 'ECONNRESET'],
  ];
  for (const [what, err] of failures) {
    it(`does not see one in ${what}`, () => {
      expect(connectionLoss(err)).to.equal(undefined);
    });
  }
});

describe('explainFailure', () => {
  it('does word a broken connection and keep the Node error as the cause', () => {
    const cause = nodeError('aborted', { code: 'ECONNRESET' });
    const err = explainFailure(cause, 'list');
    expect(err).to.be.instanceOf(KubeError);
    expect(err.message).to.equal("the list request's connection was closed by the server or a proxy before its answer was complete (ECONNRESET: aborted)");
    expect(err.cause).to.equal(cause);
    expect(explainFailure(nodeError('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }), 'watch').message)
      .to.equal("the watch request's connection was reset before its answer was complete (ECONNRESET)");
  });

  it('does leave every other error as it is', () => {
    const refused = nodeError('connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED' });
    expect(explainFailure(refused, 'list')).to.equal(refused);
    const gone = new KubeError('Expired', 'too old resource version: 1 (2)');
    expect(explainFailure(gone, 'watch')).to.equal(gone);
    expect(explainFailure('boom', 'watch').message).to.equal('boom');
  });
});
