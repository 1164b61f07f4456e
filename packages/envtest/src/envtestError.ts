/** The error of `@kubekit/envtest`: Go missing or too old, a failed build, a server that did not start. */

/** Something envtest could not do, with what was needed and (in `cause`) what failed. */
export class EnvtestError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EnvtestError';
  }
}
