import { FieldPath, invalid, type FieldError, type FieldPathLike } from '@kubekit/core';
import { sortGoStrings, utf8ByteLength } from './internal/goStrings.js';

// Formats and messages of k8s.io/apimachinery/pkg/api/validate/content (kube.go, dns.go, errors.go),
// which the label selector parser uses for keys and values, and of pkg/util/validation (kube-apiserver
// 1.34), which object metadata, label selector objects, object names and CRDs use: the same rules; the
// too-long message ("bytes" / "characters") and a label key's noun ("a valid label key" / "a qualified
// name") differ. The checks are hand-written scans equivalent to the regular
// expressions the messages quote: linear time on any input, and no allocation when valid.

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyMaxLength = 63;
const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueMaxLength = 63;
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123LabelMaxLength = 63;
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainMaxLength = 253;
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg = 'a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character';
const dns1035LabelMaxLength = 63;

/** `content.MaxLenError`: `must be no more than <n> bytes` (the label selector parser's keys and values). */
function maxLenError(length: number): string {
  return `must be no more than ${length} bytes`;
}

/**
 * `validation.MaxLenError` of pkg/util/validation, which the DNS name checks of object names and
 * CRDs use: it says "characters" although it counts bytes.
 */
function maxCharsError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `content.RegexError`: the message, examples and the regular expression, as the apiserver words it. */
function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) s += ' or ';
    s += `'${e}', `;
  });
  return `${s}regex used for validation is '${re}')`;
}

const enum C {
  Dash = 0x2d,
  Dot = 0x2e,
  Underscore = 0x5f,
}

function isLowerAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function isAlnum(c: number): boolean {
  return isLowerAlnum(c) || (c >= 0x41 && c <= 0x5a);
}

/** `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`: non-empty, alphanumeric at both ends. */
function matchesLabelKeyName(s: string): boolean {
  const n = s.length;
  if (n === 0 || !isAlnum(s.charCodeAt(0)) || !isAlnum(s.charCodeAt(n - 1))) return false;
  for (let i = 1; i < n - 1; i++) {
    const c = s.charCodeAt(i);
    if (!isAlnum(c) && c !== C.Dash && c !== C.Underscore && c !== C.Dot) return false;
  }
  return true;
}

/** `[a-z0-9]([-a-z0-9]*[a-z0-9])?` on `s[from:to]`. */
function matchesDNS1123Label(s: string, from: number, to: number): boolean {
  if (to <= from || !isLowerAlnum(s.charCodeAt(from)) || !isLowerAlnum(s.charCodeAt(to - 1))) return false;
  for (let i = from + 1; i < to - 1; i++) {
    const c = s.charCodeAt(i);
    if (!isLowerAlnum(c) && c !== C.Dash) return false;
  }
  return true;
}

/** `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`. */
function matchesDNS1123Subdomain(s: string): boolean {
  let from = 0;
  for (;;) {
    const dot = s.indexOf('.', from);
    const to = dot < 0 ? s.length : dot;
    if (!matchesDNS1123Label(s, from, to)) return false;
    if (dot < 0) return true;
    from = dot + 1;
  }
}

/** `[a-z]([-a-z0-9]*[a-z0-9])?`. */
function matchesDNS1035Label(s: string): boolean {
  const first = s.charCodeAt(0);
  return first >= 0x61 && first <= 0x7a && matchesDNS1123Label(s, 0, s.length);
}

/**
 * Whether `value` is a valid label key as the label selector parser checks it (`content.IsLabelKey` of
 * k8s.io/apimachinery/pkg/api/validate/content): an optional DNS-1123 subdomain prefix and `/`, then a
 * name of at most 63 bytes. Returns the parser's messages ("a valid label key", lengths in "bytes"), or
 * an empty array when valid. Object metadata (label keys, annotation keys, finalizer names) is checked
 * with {@link isQualifiedName}, whose words differ.
 *
 * @example
 * ```ts
 * validateLabelKey('example.com/app'); // []
 * validateLabelKey('/simple');         // ['prefix part must be non-empty']
 * ```
 */
export function validateLabelKey(value: string): string[] {
  return qualifiedNameErrors(value, 'a valid label key', maxLenError);
}

/**
 * Whether `value` is a qualified name (`validation.IsQualifiedName` of
 * k8s.io/apimachinery/pkg/util/validation, kube-apiserver 1.34): the rules of {@link validateLabelKey}
 * in the words object metadata validation uses for label keys, annotation keys and finalizer names
 * ("a qualified name", lengths in "characters" although bytes are counted). Returns the messages, or
 * an empty array when valid.
 *
 * @example
 * ```ts
 * isQualifiedName('example.com/' + 'a'.repeat(64)); // ['name part must be no more than 63 characters']
 * ```
 */
export function isQualifiedName(value: string): string[] {
  return qualifiedNameErrors(value, 'a qualified name', maxCharsError);
}

/** The shared scan of a label key or qualified name; `noun` and `tooLong` are the two packages' words. */
function qualifiedNameErrors(value: string, noun: string, tooLong: (length: number) => string): string[] {
  const errs: string[] = [];
  const slash = value.indexOf('/');
  let name = value;
  if (slash >= 0) {
    if (value.indexOf('/', slash + 1) >= 0) {
      return [`${noun} ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
    }
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const msg of subdomainErrors(prefix, tooLong)) errs.push(`prefix part ${msg}`);
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (utf8ByteLength(name) > labelKeyMaxLength) errs.push(`name part ${tooLong(labelKeyMaxLength)}`);
  if (!matchesLabelKeyName(name)) errs.push(`name part ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/**
 * Whether `value` is a valid label value as the label selector parser checks it (`content.IsLabelValue`):
 * empty, or at most 63 bytes of `[-A-Za-z0-9_.]` starting and ending alphanumeric. Returns the
 * parser's messages, or an empty array when valid. Object metadata uses {@link isValidLabelValue}.
 */
export function validateLabelValue(value: string): string[] {
  return labelValueErrors(value, maxLenError);
}

/**
 * Whether `value` is a valid label value (`validation.IsValidLabelValue` of pkg/util/validation,
 * kube-apiserver 1.34): the rules of {@link validateLabelValue} in the words of `metadata.labels`
 * and label selector object validation (the length in "characters").
 */
export function isValidLabelValue(value: string): string[] {
  return labelValueErrors(value, maxCharsError);
}

function labelValueErrors(value: string, tooLong: (length: number) => string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > labelValueMaxLength) errs.push(tooLong(labelValueMaxLength));
  if (value.length > 0 && !matchesLabelKeyName(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

/**
 * Whether `value` is a DNS-1123 label (`IsDNS1123Label`), as namespace names and many other names
 * must be. Returns the apiserver's messages, or an empty array when valid.
 */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > dns1123LabelMaxLength) errs.push(maxCharsError(dns1123LabelMaxLength));
  if (!matchesDNS1123Label(value, 0, value.length)) {
    errs.push(matchesDNS1123Subdomain(value) ? 'must not contain dots' : regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/**
 * Whether `value` is a DNS-1123 subdomain (`IsDNS1123Subdomain`), as most object names and API group
 * names must be. Returns the apiserver's messages, or an empty array when valid.
 */
export function isDNS1123Subdomain(value: string): string[] {
  return subdomainErrors(value, maxCharsError);
}

/** The subdomain check, with the length message of `content` (label key prefixes) or `validation`. */
function subdomainErrors(value: string, tooLong: (length: number) => string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > dns1123SubdomainMaxLength) errs.push(tooLong(dns1123SubdomainMaxLength));
  if (!matchesDNS1123Subdomain(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/**
 * Whether `value` is a DNS-1035 label (`IsDNS1035Label`): a DNS-1123 label that starts with a letter.
 * Returns the apiserver's messages, or an empty array when valid.
 */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > dns1035LabelMaxLength) errs.push(maxCharsError(dns1035LabelMaxLength));
  if (!matchesDNS1035Label(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/**
 * Validates a set of labels as the apiserver validates `metadata.labels` and `matchLabels`
 * (`metav1validation.ValidateLabels`): each key with {@link isQualifiedName} and each value with
 * {@link isValidLabelValue}, every error at `fldPath` itself. Keys are visited in sorted order
 * (Go's map order is random; sorting makes the output stable).
 *
 * @example
 * ```ts
 * validateLabels({ 'app_': 'x' }, 'metadata.labels').map(String);
 * // ['metadata.labels: Invalid value: "app_": name part must consist of ...']
 * ```
 */
export function validateLabels(labels: Readonly<Record<string, string>> | null | undefined, fldPath: FieldPathLike): FieldError[] {
  const errs: FieldError[] = [];
  if (labels == null) return errs;
  const path = typeof fldPath === 'string' ? FieldPath.root(fldPath) : fldPath;
  for (const key of sortGoStrings(Object.keys(labels))) {
    for (const msg of isQualifiedName(key)) errs.push(invalid(path, key, msg));
    for (const msg of isValidLabelValue(labels[key])) errs.push(invalid(path, labels[key], msg));
  }
  return errs;
}
