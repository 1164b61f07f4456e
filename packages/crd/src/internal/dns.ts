/**
 * Name helpers of the apiserver that `@kubekit/selectors` does not own. The DNS name checks themselves
 * (`isDNS1123Subdomain`, `isDNS1123Label`, `isDNS1035Label`) come from `@kubekit/selectors`.
 */

/** Go's `len(s)`: the UTF-8 byte length. */
export { utf8ByteLength as byteLength } from '@kubekit/core';

/** `apimachinery/pkg/api/validation.maskTrailingDash`, including its two-character cut. */
export function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, name.length - 2)}a`;
  return name;
}
