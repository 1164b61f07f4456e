/**
 * kube-openapi's `strfmt.Default` registry: each format's validator, keyed by its normalised name
 * (dashes dropped). Regular expressions are Go's, rewritten for ECMAScript with the same meaning
 * (`\d` and `\s` are ASCII in RE2, so they are spelled out).
 */
import { utf8ByteLength as byteLength } from '@kubekit/core';
import { isCIDR, isEmail, isIPv4, isIPv6, isMAC, isRequestURI } from './netFormats.js';
import { parseDate, parseGoDuration } from './time.js';

type FormatValidator = (value: string) => boolean;


const rxHostname = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const rxUUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const rxUUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const rxUUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const rxUUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const rxCreditCard = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$/;
const rxISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/;
const rxISBN13 = /^(?:[0-9]{13})$/;
const rxHexcolor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rxRGBcolor = /^rgb\([\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*\)$/;
const rxBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const rxSSN = /^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$/;
const rxDateTime = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;
const rxShortName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const rxLongName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const rxNonDigits = /[^0-9]+/gu;
const rxSpacesAndMinus = /[\t\n\f\r \-]+/g;

function isHostname(s: string): boolean {
  if (!rxHostname.test(s)) return false;
  if (byteLength(s) > 255) return false;
  return s.split('.').every((p) => byteLength(p) <= 63);
}

function isCreditCard(s: string): boolean {
  const digits = s.replace(rxNonDigits, '');
  if (!rxCreditCard.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      sum += d >= 10 ? (d % 10) + 1 : d;
    } else {
      sum += d;
    }
    double = !double;
  }
  return sum % 10 === 0;
}

function isISBN10(s: string): boolean {
  const t = s.replace(rxSpacesAndMinus, '');
  if (!rxISBN10.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * (t.charCodeAt(i) - 48);
  sum += t[9] === 'X' ? 100 : 10 * (t.charCodeAt(9) - 48);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const t = s.replace(rxSpacesAndMinus, '');
  if (!rxISBN13.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (t.charCodeAt(i) - 48);
  return t.charCodeAt(12) - 48 - ((10 - (sum % 10)) % 10) === 0;
}

/** Go's `time.Parse("2006-01-02", s)` succeeding: a real calendar date with a four-digit year. */
function isDate(s: string): boolean {
  return parseDate(s) !== undefined;
}

/** strfmt's `IsDateTime`: a date, a `t`, and a time matched loosely (only the part after the first `t`). */
function isDateTime(s: string): boolean {
  if (byteLength(s) < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = rxDateTime.exec(parts[1]);
  if (m === null) return false;
  return m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const rxDurationPart = /([0-9]+)[\t\n\f\r ]*([A-Za-zµ]+)/gu;
const durationVariants = [
  ['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'],
  ['d', 'day'], ['w', 'wk', 'week'],
];

/** strfmt's `ParseDuration` succeeding: Go's syntax, or number–unit pairs such as `3 days` or `1 week`. */
function isDuration(s: string): boolean {
  if (parseGoDuration(s) !== undefined) return true;
  let ok = false;
  for (const m of s.matchAll(rxDurationPart)) {
    if (BigInt(m[1]) > 2n ** 63n - 1n) return false;
    const unit = m[2].toLowerCase();
    for (const variants of durationVariants) {
      const last = variants.length - 1;
      variants.forEach((v, i) => {
        if ((i === last && unit.startsWith(v)) || v === unit) ok = true;
      });
    }
  }
  return ok;
}

function isBSONObjectID(s: string): boolean {
  return s.length === 24 && /^[0-9a-fA-F]*$/.test(s);
}

/** The default registry's validators by normalised name. */
export const formatValidators: ReadonlyMap<string, FormatValidator> = new Map<string, FormatValidator>([
  ['uri', isRequestURI],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', isIPv4],
  ['ipv6', isIPv6],
  ['cidr', isCIDR],
  ['mac', isMAC],
  ['uuid', (s) => rxUUID.test(s)],
  ['uuid3', (s) => rxUUID3.test(s)],
  ['uuid4', (s) => rxUUID4.test(s)],
  ['uuid5', (s) => rxUUID5.test(s)],
  ['isbn', (s) => isISBN10(s) || isISBN13(s)],
  ['isbn10', isISBN10],
  ['isbn13', isISBN13],
  ['creditcard', isCreditCard],
  ['ssn', (s) => s.length === 11 && rxSSN.test(s)],
  ['hexcolor', (s) => rxHexcolor.test(s)],
  ['rgbcolor', (s) => rxRGBcolor.test(s)],
  ['byte', (s) => rxBase64.test(s)],
  ['password', () => true],
  ['date', isDate],
  ['datetime', isDateTime],
  ['duration', isDuration],
  ['bsonobjectid', isBSONObjectID],
  ['k8sshortname', (s) => byteLength(s) <= 63 && rxShortName.test(s)],
  ['k8slongname', (s) => byteLength(s) <= 253 && rxLongName.test(s)],
]);
