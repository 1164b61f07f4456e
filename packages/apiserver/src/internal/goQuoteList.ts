import { goQuote } from '@kubekit/core';

/** Go's `%q` of a `[]string` (each element `strconv.Quote`d, spaces between): `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}
