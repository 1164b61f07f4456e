/**
 * `spec.conversion` validation (`validateCustomResourceConversion` with the webhook checks of
 * `k8s.io/apiserver/pkg/util/webhook`), including enough of Go's `net/url.Parse` to report what the
 * apiserver reports for a webhook URL.
 */
import { FieldError, FieldPath, forbidden, invalid, notSupported, required } from '@kubekit/core';
import { isDNS1035Label, isDNS1123Subdomain } from '@kubekit/selectors';
import { jsonStringSlice, invalidJSON } from './goJSON.js';
import type { Conversion } from './model.js';

const acceptedConversionReviewVersions = ['v1', 'v1beta1'];

/** The parts of a URL that the webhook checks read. */
export interface ParsedURL {
  scheme: string;
  user?: string;
  host: string;
  rawQuery: string;
  fragment: string;
}

function unescapeError(s: string): string | undefined {
  const m = /%(?![0-9A-Fa-f]{2})(.{0,2})/su.exec(s);
  return m === null ? undefined : `invalid URL escape ${JSON.stringify(`%${m[1]}`)}`;
}

/** Go's `url.Parse` for the fields the webhook checks use; `{error}` carries Go's error text. */
export function parseURL(raw: string): ParsedURL | { error: string } {
  const fail = (msg: string) => ({ error: `parse ${JSON.stringify(raw)}: ${msg}` });
  if (/[\x00-\x1f\x7f]/u.test(raw)) return fail('net/url: invalid control character in URL');
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
    const e = unescapeError(fragment);
    if (e !== undefined) return fail(e);
    fragment = safeDecode(fragment);
  }
  let scheme = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (/[A-Za-z]/u.test(c)) continue;
    if (/[0-9+.-]/u.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return fail('missing protocol scheme');
      scheme = rest.slice(0, i).toLowerCase();
      rest = rest.slice(i + 1);
    }
    break;
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//') || (scheme === '' && rest.startsWith('//'))) {
    const authority = rest.slice(2).split('/')[0];
    const at = authority.lastIndexOf('@');
    host = at >= 0 ? authority.slice(at + 1) : authority;
    if (at >= 0) {
      user = authority.slice(0, at);
      const e = unescapeError(user);
      if (e !== undefined) return fail(e);
    }
    const e = unescapeError(host);
    if (e !== undefined) return fail(e);
    const path = rest.slice(2 + authority.length);
    const pe = unescapeError(path);
    if (pe !== undefined) return fail(pe);
  } else if (scheme === '' && rest.includes(':') && !rest.slice(0, rest.indexOf(':')).includes('/')) {
    return fail('first path segment in URL cannot contain colon');
  }
  return { scheme, user, host, rawQuery, fragment };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `webhook.ValidateWebhookURL(path, url, forceHttps=true)`. */
export function validateWebhookURL(path: FieldPath, url: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = parseURL(url);
  if ('error' in u) return [required(path, `url must be a valid URL: ${u.error}${form}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host.length === 0) errs.push(invalid(path, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length > 0) errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length > 0) errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** `webhook.ValidateWebhookService`. */
export function validateWebhookService(path: FieldPath, namespace: string, name: string, urlPath: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(required(path.child('name'), ''));
  if (namespace.length === 0) errs.push(required(path.child('namespace'), ''));
  if (port < 1 || port > 65535) errs.push(invalid(path.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (urlPath === undefined || urlPath === '/' || urlPath.length === 0) return errs;
  if (urlPath === '//') {
    errs.push(invalid(path.child('path'), urlPath, 'segment[0] may not be empty'));
    return errs;
  }
  if (!urlPath.startsWith('/')) errs.push(invalid(path.child('path'), urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(path.child('path'), urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(path.child('path'), urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** `hasValidConversionReviewVersionOrEmpty`. */
export function hasValidConversionReviewVersionOrEmpty(versions: readonly string[] | undefined): boolean {
  if (versions === undefined || versions.length === 0) return true;
  return versions.some((v) => acceptedConversionReviewVersions.includes(v));
}

function validateConversionReviewVersions(versions: readonly string[] | undefined, requireRecognized: boolean, path: FieldPath): FieldError[] {
  if (versions === undefined || versions.length === 0) return [required(path, '')];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(invalid(path.index(i), v, e));
    if (acceptedConversionReviewVersions.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) {
    errs.push(invalidJSON(path, versions, jsonStringSlice(versions), `must include at least one of ${acceptedConversionReviewVersions.join(', ')}`));
  }
  return errs;
}

/** `validateCustomResourceConversion` (CA bundles are not checked: kubekit does not parse certificates). */
export function validateConversion(conversion: Conversion | undefined, requireRecognizedVersion: boolean, path: FieldPath): FieldError[] {
  if (conversion === undefined) return [];
  const errs: FieldError[] = [];
  if (conversion.strategy.length === 0) errs.push(required(path.child('strategy'), ''));
  else if (conversion.strategy !== 'None' && conversion.strategy !== 'Webhook') errs.push(notSupported(path.child('strategy'), conversion.strategy, ['None', 'Webhook']));
  const ccPath = path.child('webhookClientConfig');
  if (conversion.strategy === 'Webhook') {
    const cc = conversion.webhookClientConfig;
    if (cc === undefined) {
      errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    } else if ((cc.url === undefined) === (cc.service === undefined)) {
      errs.push(required(ccPath, 'exactly one of url or service is required'));
    } else if (cc.url !== undefined) {
      errs.push(...validateWebhookURL(ccPath.child('url'), cc.url));
    } else if (cc.service !== undefined) {
      errs.push(...validateWebhookService(ccPath.child('service'), cc.service.namespace, cc.service.name, cc.service.path, cc.service.port));
    }
    errs.push(...validateConversionReviewVersions(conversion.conversionReviewVersions, requireRecognizedVersion, path.child('conversionReviewVersions')));
  } else {
    if (conversion.webhookClientConfig !== undefined) errs.push(forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if ((conversion.conversionReviewVersions?.length ?? 0) > 0) {
      errs.push(forbidden(path.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}
