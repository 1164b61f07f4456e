// Continue tokens of paginated lists, encoded and read as the apiserver's storage does
// (k8s.io/apiserver/pkg/storage/continue.go): unpadded base64url of the JSON
// `{"v":"meta.k8s.io/v1","rv":<list resourceVersion>,"start":"<next key>"}`. A token that does not
// read gets the words of DecodeContinue's errors, behind the list handler's "invalid continue token: ".
import { KubeError } from '@kubekit/core';
import { goJSONSyntaxError, goUnmarshalStruct } from './goJSON.js';

/** A decoded continue token. */
export interface ContinueToken {
  /**
   * The resourceVersion of the list the token continues, as the int64 the apiserver reads: never 0;
   * negative asks for the latest state (storage.ValidateListOptions); it may exceed the store's.
   */
  rv: bigint;
  /** The store key to continue from (inclusive). */
  start: string;
}

/** Encodes a continue token: the list's resourceVersion and the key after the last one returned. */
export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` })).toString('base64url');
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Decodes unpadded base64url as Go's `base64.RawURLEncoding.DecodeString`: line breaks are skipped,
 * any other byte outside the alphabet (padding included) and a final lone character are a
 * `CorruptInputError` at that input byte.
 */
export function decodeRawURLBase64(text: string): { bytes: Buffer } | { error: string } {
  const input = Buffer.from(text, 'latin1');
  const out: number[] = [];
  let bits = 0;
  let nbits = 0;
  let inQuantum = 0;
  let lastStart = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === 0x0a || c === 0x0d) continue;
    const v = alphabet.indexOf(String.fromCharCode(c));
    if (v < 0) return { error: `illegal base64 data at input byte ${i}` };
    if (inQuantum === 0) lastStart = i;
    inQuantum = (inQuantum + 1) % 4;
    bits = (bits << 6) | v;
    nbits += 6;
    if (nbits >= 8) {
      nbits -= 8;
      out.push((bits >> nbits) & 0xff);
      bits &= (1 << nbits) - 1;
    }
  }
  // A quantum of one character holds no whole byte.
  if (inQuantum === 1) return { error: `illegal base64 data at input byte ${lastStart}` };
  return { bytes: Buffer.from(out) };
}

function invalidToken(detail: string): KubeError {
  return KubeError.badRequest(`invalid continue token: ${detail}`);
}

const notValid = 'continue key is not valid';

/** The token's fields as `storage.continueToken` declares them. */
const tokenFields = { v: 'string', rv: 'int64', start: 'string' } as const;

/**
 * Reads a continue token as `storage.DecodeContinue` does: the JSON is decoded as `json.Unmarshal`
 * decodes it into the token's struct (members in order, keys matched case-insensitively, the last one
 * winning, the first type error reported; see {@link goUnmarshalStruct}).
 *
 * @returns the token's resourceVersion as the int64 it is (a negative one asks for the latest state;
 *   one beyond 2^53 is still read exactly) and the store key to continue from.
 * @throws KubeError (`BadRequest`) `invalid continue token: continue key is not valid…` with Go's
 *   words for what did not read (base64, JSON, version, resourceVersion, start key).
 */
export function decodeContinue(token: string): ContinueToken {
  const decoded = decodeRawURLBase64(token);
  if ('error' in decoded) throw invalidToken(`${notValid}: ${decoded.error}`);
  const syntax = goJSONSyntaxError(decoded.bytes);
  if (syntax !== undefined) throw invalidToken(`${notValid}: ${syntax}`);
  const { values, error } = goUnmarshalStruct(decoded.bytes.toString('utf8'), 'storage.continueToken', tokenFields);
  if (error !== undefined) throw invalidToken(`${notValid}: ${error}`);
  const version = (values.get('v') as string | undefined) ?? '';
  if (version !== 'meta.k8s.io/v1') throw invalidToken(`${notValid}: server does not recognize this encoded version ${version}`);
  const rv = (values.get('rv') as bigint | undefined) ?? 0n;
  if (rv === 0n) throw invalidToken(`${notValid}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`);
  const start = (values.get('start') as string | undefined) ?? '';
  if (start === '') throw invalidToken(`${notValid}: encoded start key empty (version meta.k8s.io/v1)`);
  // A start key that path.Clean would change could reach outside the listed prefix.
  const rooted = start.startsWith('/') ? start : `/${start}`;
  if (cleanPath(rooted) !== rooted) throw invalidToken(`${notValid}: ${start}`);
  return { rv, start: rooted.slice(1) };
}

/** Go's `path.Clean` of a rooted path. */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}
