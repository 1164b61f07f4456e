import { asError, KubeError } from '@kubekit/core';

/** How a connection broke: Node's error code, and the words for it (`the watch connection …`). */
export interface ConnectionLoss {
  code: string;
  how: string;
}

/**
 * Whether `err` says the connection broke under a response being read — Node's counterparts of what
 * apimachinery's `net.IsProbableEOF` accepts (io.EOF, io.ErrUnexpectedEOF, "connection reset by
 * peer", "use of closed network connection", "broken pipe" on a write) — and how; `undefined` for
 * anything else. Timeouts (`ETIMEDOUT`, kubekit's idle timeout), TLS and HTTP parse errors, aborts and
 * errors without a code are not a broken connection: they stay failures.
 *
 * @see https://github.com/kubernetes/apimachinery/blob/master/pkg/util/net/http.go (IsProbableEOF)
 */
export function connectionLoss(err: unknown): ConnectionLoss | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, syscall } = err as { code?: unknown; syscall?: unknown };
  switch (code) {
    case 'ECONNRESET':
      // Node's `aborted`: the connection ended (FIN) before the chunked body did — Go's unexpected EOF.
      if (err.message === 'aborted') return { code, how: 'was closed by the server or a proxy' };
      return { code, how: syscall === 'read' || /ECONNRESET/.test(err.message) ? 'was reset' : 'was closed by the server or a proxy' };
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return { code, how: 'closed before its response ended' };
    case 'EPIPE':
    case 'ECONNABORTED':
      return { code, how: 'broke' };
    default:
      return undefined;
  }
}

/**
 * `err` as it is reported after a failed `what` (`list`, `watch`, `streaming list`): a broken
 * connection in words (Node's own, `aborted` or `socket hang up`, say nothing of what broke), with
 * the Node error as the cause; anything else as it is.
 */
export function explainFailure(err: unknown, what: string): Error {
  const loss = err instanceof KubeError ? undefined : connectionLoss(err);
  if (loss === undefined) return asError(err);
  const message = (err as Error).message;
  const detail = message === '' || message.includes(loss.code) ? loss.code : `${loss.code}: ${message}`;
  return new KubeError('InternalError', `the ${what} request's connection ${loss.how} before its answer was complete (${detail})`, { cause: err });
}
