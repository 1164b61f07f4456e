/**
 * Kubernetes' semver library (Kubernetes 1.33+): `semver(s)`, `semver(s, normalize)`, `isSemver`,
 * `isGreaterThan`, `isLessThan`, `compareTo`, `major`, `minor`, `patch`, over `blang/semver` parsing
 * (strict `MAJOR.MINOR.PATCH[-pre][+build]`; with `normalize`, a `v` prefix, leading zeros and
 * missing minor/patch are accepted) and SemVer 2.0 precedence.
 */
import { OpaqueVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, IntType, StringType, objectType } from '../internal/types.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

/** `kubernetes.Semver`. */
export const SemverType = objectType('kubernetes.Semver');

type PreRelease = string | bigint;

/** A parsed version. */
export class SemverVal extends OpaqueVal {
  readonly celType = SemverType;

  constructor(readonly major: bigint, readonly minor: bigint, readonly patch: bigint, readonly pre: readonly PreRelease[]) {
    super();
  }

  /** SemVer 2.0 precedence (build metadata ignored). */
  compare(o: SemverVal): number {
    for (const [a, b] of [[this.major, o.major], [this.minor, o.minor], [this.patch, o.patch]] as const) {
      if (a !== b) return a < b ? -1 : 1;
    }
    if (this.pre.length === 0 || o.pre.length === 0) return this.pre.length === o.pre.length ? 0 : this.pre.length === 0 ? 1 : -1;
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const a = this.pre[i];
      const b = o.pre[i];
      if (a === b) continue;
      if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : 1;
      if (typeof a === 'bigint') return -1;
      if (typeof b === 'bigint') return 1;
      return a < b ? -1 : 1;
    }
    return this.pre.length === o.pre.length ? 0 : this.pre.length < o.pre.length ? -1 : 1;
  }

  equals(other: OpaqueVal): boolean {
    return other instanceof SemverVal && this.compare(other) === 0;
  }
}

const numeric = /^(0|[1-9][0-9]*)$/;
const ident = /^[0-9A-Za-z-]+$/;

/** `semver.Parse`, or its error text. */
export function parseSemver(s: string): SemverVal | string {
  if (s.length === 0) return 'Version string empty';
  const parts = s.split('.', 3);
  if (parts.length !== 3 || s.split('.').length < 3) return 'No Major.Minor.Patch elements found';
  const [maj, min] = parts;
  const restAll = s.slice(maj.length + min.length + 2);
  if (!numeric.test(maj)) return maj.length > 1 && maj[0] === '0' ? `Major number must not contain leading zeroes "${maj}"` : `Invalid character(s) found in major number "${maj}"`;
  if (!numeric.test(min)) return min.length > 1 && min[0] === '0' ? `Minor number must not contain leading zeroes "${min}"` : `Invalid character(s) found in minor number "${min}"`;
  let rest = restAll;
  let build: string | undefined;
  const plus = rest.indexOf('+');
  if (plus >= 0) {
    build = rest.slice(plus + 1);
    rest = rest.slice(0, plus);
  }
  let preText: string | undefined;
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    preText = rest.slice(dash + 1);
    rest = rest.slice(0, dash);
  }
  if (!numeric.test(rest)) return rest.length > 1 && rest[0] === '0' ? `Patch number must not contain leading zeroes "${rest}"` : `Invalid character(s) found in patch number "${rest}"`;
  const pre: PreRelease[] = [];
  if (preText !== undefined) {
    for (const p of preText.split('.')) {
      if (p.length === 0) return 'Prerelease is empty';
      if (/^[0-9]+$/.test(p)) {
        if (!numeric.test(p)) return `Numeric PreRelease version must not contain leading zeroes "${p}"`;
        pre.push(BigInt(p));
      } else if (ident.test(p)) {
        pre.push(p);
      } else {
        return `Invalid character(s) found in prerelease "${p}"`;
      }
    }
  }
  if (build !== undefined) {
    for (const b of build.split('.')) {
      if (b.length === 0) return 'Build meta data is empty';
      if (!ident.test(b)) return `Invalid character(s) found in build meta data "${b}"`;
    }
  }
  return new SemverVal(BigInt(maj), BigInt(min), BigInt(rest), pre);
}

/** Kubernetes' `normalizeAndParse`. */
function normalizeAndParse(input: string): SemverVal | string {
  const s = input.startsWith('v') ? input.slice(1) : input;
  const parts = s.split('.');
  const split = parts.length > 3 ? [parts[0], parts[1], parts.slice(2).join('.')] : parts;
  const trimmed = split.map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, '');
    return t.length === 0 || !/[0-9]/.test(t[0]) ? `0${t}` : t;
  });
  if (trimmed.length < 3) {
    if (/[+-]/.test(trimmed[trimmed.length - 1])) return 'short version cannot contain PreRelease/Build meta data';
    while (trimmed.length < 3) trimmed.push('0');
  }
  return parseSemver(trimmed.join('.'));
}

function toSemver(s: CelVal, normalize: CelVal = false): CelVal {
  const r = normalize === true ? normalizeAndParse(s as string) : parseSemver(s as string);
  return typeof r === 'string' ? err(r) : r;
}

const v = (x: CelVal): SemverVal => x as SemverVal;

/** The semver library. */
export const semverLibrary: readonly FunctionDecl[] = [
  func('semver', overload('string_to_semver', [StringType], SemverType, (s) => toSemver(s)),
    overload('string_bool_to_semver', [StringType, BoolType], SemverType, toSemver)),
  func('isSemver', overload('is_semver_string', [StringType], BoolType, (s) => toSemver(s) instanceof SemverVal),
    overload('is_semver_string_bool', [StringType, BoolType], BoolType, (s, n) => toSemver(s, n) instanceof SemverVal)),
  func('isGreaterThan', memberOverload('semver_is_greater_than', [SemverType, SemverType], BoolType, (a, b) => v(a).compare(v(b)) === 1)),
  func('isLessThan', memberOverload('semver_is_less_than', [SemverType, SemverType], BoolType, (a, b) => v(a).compare(v(b)) === -1)),
  func('compareTo', memberOverload('semver_compare_to', [SemverType, SemverType], IntType, (a, b) => BigInt(v(a).compare(v(b))))),
  func('major', memberOverload('semver_major', [SemverType], IntType, (a) => v(a).major)),
  func('minor', memberOverload('semver_minor', [SemverType], IntType, (a) => v(a).minor)),
  func('patch', memberOverload('semver_patch', [SemverType], IntType, (a) => v(a).patch)),
];
