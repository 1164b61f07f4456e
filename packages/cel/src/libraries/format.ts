/**
 * Kubernetes' format library: `format.dns1123Label()`, `format.named('…')`, … and
 * `<format>.validate(string)`, which returns the apimachinery validation messages
 * (`optional.none()` when the string is valid).
 */
import { isDNS1035Label as dns1035Label, isDNS1123Label as dns1123Label, isDNS1123Subdomain as dns1123Subdomain } from '@kubekit/selectors';
import { formatValidators } from '../internal/stringFormats.js';
import { ArrayList, OpaqueVal, OptionalVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { StringType, listType, objectType, optionalType } from '../internal/types.js';
import { parseURL } from './urls.js';
import { func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

/** `kubernetes.NamedFormat`. */
export const FormatType = objectType('kubernetes.NamedFormat');

/** A named format. */
export class FormatVal extends OpaqueVal {
  readonly celType = FormatType;

  constructor(readonly name: string, readonly check: (s: string) => string[]) {
    super();
  }

  equals(other: OpaqueVal): boolean {
    return other instanceof FormatVal && other.name === this.name;
  }
}

/** apimachinery's `RegexError` (with its double space before "or"). */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** `apimachinery/pkg/api/validation.maskTrailingDash`, including its two-character cut. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, name.length - 2)}a` : name;
}

const maxLen = (n: number): string => `must be no more than ${n} characters`;
const bytes = (s: string): number => Buffer.byteLength(s);

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);

const qualifiedNameMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

function qualifiedName(s: string): string[] {
  const errs: string[] = [];
  const parts = s.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const [prefix, n] = parts;
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a qualified name ${regexError(qualifiedNameMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (bytes(name) > 63) errs.push(`name part ${maxLen(63)}`);
  if (!qualifiedNameRe.test(name)) errs.push(`name part ${regexError(qualifiedNameMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

function labelValue(s: string): string[] {
  const errs: string[] = [];
  if (bytes(s) > 63) errs.push(maxLen(63));
  if (s.length > 0 && !qualifiedNameRe.test(s)) {
    errs.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", qualifiedNameFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

const strfmt = (name: string, message: string) => (s: string): string[] => (formatValidators.get(name)?.(s) === true ? [] : [message]);

/** The named formats, by the name `format.<name>()` and `format.named('<name>')` use. */
const formats = new Map<string, FormatVal>([
  ['dns1123Label', new FormatVal('DNS1123Label', dns1123Label)],
  ['dns1123Subdomain', new FormatVal('DNS1123Subdomain', dns1123Subdomain)],
  ['dns1035Label', new FormatVal('DNS1035Label', dns1035Label)],
  ['qualifiedName', new FormatVal('QualifiedName', qualifiedName)],
  ['dns1123LabelPrefix', new FormatVal('DNS1123LabelPrefix', (s) => dns1123Label(maskTrailingDash(s)))],
  ['dns1123SubdomainPrefix', new FormatVal('DNS1123SubdomainPrefix', (s) => dns1123Subdomain(maskTrailingDash(s)))],
  ['dns1035LabelPrefix', new FormatVal('DNS1035LabelPrefix', (s) => dns1035Label(maskTrailingDash(s)))],
  ['labelValue', new FormatVal('LabelValue', labelValue)],
  ['uri', new FormatVal('URI', (s) => {
    const r = parseURL(s);
    return typeof r === 'string' ? [r] : [];
  })],
  ['uuid', new FormatVal('uuid', strfmt('uuid', 'does not match the UUID format'))],
  ['byte', new FormatVal('byte', strfmt('byte', 'invalid base64'))],
  ['date', new FormatVal('date', strfmt('date', 'invalid date'))],
  ['datetime', new FormatVal('datetime', strfmt('datetime', 'invalid datetime'))],
]);

/** The format library. */
export const formatLibrary: readonly FunctionDecl[] = [
  ...[...formats].map(([name, f]) => func(`format.${name}`, overload(`format.${name}`, [], FormatType, () => f))),
  func('format.named', overload('format-named', [StringType], optionalType(FormatType), (n) => new OptionalVal(formats.get(n as string)))),
  func('validate', memberOverload('format-validate', [FormatType, StringType], optionalType(listType(StringType)), (f, s): CelVal => {
    const errs = (f as FormatVal).check(s as string);
    return new OptionalVal(errs.length === 0 ? undefined : new ArrayList(errs));
  })),
];
