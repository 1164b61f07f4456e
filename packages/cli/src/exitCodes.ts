/**
 * The exit codes of `kubekit`, the same for every command.
 *
 * | code | meaning |
 * | --- | --- |
 * | 0 | success |
 * | 1 | the input was read but is wrong: an invalid CRD or declaration, generated files that drifted (`--check`), objects the apiserver would reject, a selector it would refuse |
 * | 2 | usage error: an unknown command or option, a missing argument, a file that cannot be read or parsed |
 */
export const exitCodes = {
  success: 0,
  failure: 1,
  usage: 2,
} as const;

/** One of {@link exitCodes}. */
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** The exit codes as help text. */
export const exitCodesHelp = `
Exit codes:
  0  success
  1  the input is wrong: invalid CRD or declaration, drift (--check), objects or selectors the apiserver would reject
  2  usage error: unknown command or option, missing argument, unreadable or unparsable file`;
