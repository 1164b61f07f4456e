// The node:net server of this process listening on `port` (a kubekit server keeps its own private), for
// tests that inject a fault a healthy server never produces: an 'error' event after listening, as an
// accept() that fails (too many open files) emits.
import { Server, type AddressInfo } from 'node:net';

export function listeningServer(port: number): Server {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const found = handles.find((h): h is Server => h instanceof Server && (h.address() as AddressInfo | null)?.port === port);
  if (found === undefined) throw new Error(`no server of this process listens on port ${port}`);
  return found;
}

/** An accept error as Node emits it on a listening server. */
export function acceptError(): NodeJS.ErrnoException {
  return Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', errno: -24, syscall: 'accept' });
}
