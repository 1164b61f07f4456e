import { aggregateMessage } from '@kubekit/core';
import { goLess, sortGoStrings } from './internal/goStrings.js';
import { goSort } from './internal/goSort.js';
import { compileRequirement, matchRequirement, type CompiledRequirement } from './internal/labelMatcher.js';
import { parseRequirements } from './internal/labelParser.js';
import {
  formatLabelRequirement, makeRequirement, toPath, validateLabelRequirement,
  type LabelRequirement, type LabelRequirementOptions,
} from './labelRequirement.js';
import { SelectorParseError } from './selectorParseError.js';

/**
 * The labels a {@link LabelSelector} is matched against: a plain record (Go's `labels.Set`) or a
 * getter returning a label's value, `undefined` when the label is absent. In a record, a key whose
 * value is not a string counts as absent.
 */
export type LabelSet = Readonly<Record<string, string>> | ((key: string) => string | undefined);

/**
 * A parsed label selector (`k8s.io/apimachinery/pkg/labels.Selector`): requirements that must all
 * hold, sorted by key. Immutable; build one with {@link parseLabelSelector},
 * {@link labelSelectorFromSet} or `labelSelectorFromObject`.
 *
 * Requirements are compiled when the selector is built, so `matches` allocates nothing.
 *
 * @example
 * ```ts
 * const sel = parseLabelSelector('app=shop, tier in (web,api), !canary');
 * sel.matches({ app: 'shop', tier: 'web' }); // true
 * sel.toString();                              // 'app=shop,!canary,tier in (api,web)'
 * ```
 */
export class LabelSelector {
  private readonly reqs: readonly LabelRequirement[];
  private readonly compiled: readonly CompiledRequirement[];
  private readonly never: boolean;
  private text: string | undefined;

  /** @internal Use the factory functions; the constructor is not part of the public API. */
  constructor(requirements: readonly LabelRequirement[], never = false) {
    this.reqs = Object.freeze([...requirements]);
    this.compiled = this.reqs.map(compileRequirement);
    this.never = never;
  }

  /** Whether every requirement holds for `labels` (`null`/`undefined`: an object without labels). */
  matches(labels: LabelSet | null | undefined): boolean {
    if (this.never) return false;
    if (labels == null) labels = noLabels;
    const reqs = this.compiled;
    const n = reqs.length;
    if (typeof labels === 'function') {
      for (let i = 0; i < n; i++) {
        const r = reqs[i];
        const v: unknown = labels(r.key);
        if (!matchRequirement(r, typeof v === 'string' ? v : undefined)) return false;
      }
      return true;
    }
    const record = labels as Readonly<Record<string, unknown>>;
    for (let i = 0; i < n; i++) {
      const r = reqs[i];
      const v = record[r.key];
      if (!matchRequirement(r, typeof v === 'string' ? v : undefined)) return false;
    }
    return true;
  }

  /** Whether the selector has no requirements: it then matches every object. */
  isEmpty(): boolean {
    return this.reqs.length === 0 && !this.never;
  }

  /** Whether this is {@link nothingLabelSelector} (`labels.MatchesNothing`): it matches no object. */
  matchesNothing(): boolean {
    return this.never;
  }

  /** The canonical text: requirements in stored order, each as {@link formatLabelRequirement} prints it. */
  toString(): string {
    if (this.text === undefined) this.text = this.reqs.map(formatLabelRequirement).join(',');
    return this.text;
  }

  /** The requirements, sorted by key (frozen). Empty for {@link nothingLabelSelector}. */
  requirements(): readonly LabelRequirement[] {
    return this.reqs;
  }

  /**
   * The value `label` must have for the selector to match, or `undefined`: decided by the first
   * requirement on `label`, which must be `=`, `==` or `in` with a single value.
   */
  requiresExactMatch(label: string): string | undefined {
    for (const r of this.reqs) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
      return undefined;
    }
    return undefined;
  }

  /**
   * A new selector with `requirements` added (`Selector.Add`), re-sorted by key exactly as the
   * apiserver sorts them. Each added requirement is validated as {@link newLabelRequirement} does.
   * Adding to {@link nothingLabelSelector} gives it back unchanged.
   *
   * @throws {@link SelectorParseError} when an added requirement is invalid.
   */
  add(...requirements: readonly LabelRequirement[]): LabelSelector {
    if (this.never) return this;
    const added = requirements.map((r) => {
      const errs = validateLabelRequirement(r.key, r.operator, r.values);
      if (errs.length > 0) throw new SelectorParseError(aggregateMessage(errs), { fieldErrors: errs });
      return makeRequirement(r.key, r.operator, r.values);
    });
    return new LabelSelector(sortByKey([...this.reqs, ...added]));
  }
}

const noLabels: Readonly<Record<string, string>> = Object.freeze({});

/** @internal Sorts requirements by key as `sort.Sort(ByKey(...))` does (unstable beyond 12 elements). */
export function sortByKey(reqs: LabelRequirement[]): LabelRequirement[] {
  return goSort(reqs, (a, b) => goLess(a.key, b.key));
}

const everything = new LabelSelector([]);
const nothing = new LabelSelector([], true);

/** The selector that matches every object (`labels.Everything()`): empty, printed as `""`. */
export function everythingLabelSelector(): LabelSelector {
  return everything;
}

/**
 * The selector that matches no object (`labels.Nothing()`), as `labelSelectorFromObject(null)`
 * returns. It is not empty, yet prints as `""`.
 */
export function nothingLabelSelector(): LabelSelector {
  return nothing;
}

/**
 * Parses a label selector (`labels.Parse`) with the apiserver's grammar and messages:
 * `key`, `!key`, `key=v`, `key==v`, `key!=v`, `key>n`, `key<n`, `key in (a,b)`, `key notin (a,b)`,
 * joined by commas; whitespace separates tokens; keys and values are validated; requirements are
 * sorted by key.
 *
 * @throws {@link SelectorParseError} with the apiserver's text, e.g. `found ',', expected:
 *   identifier after ','` or `unable to parse requirement: values[0][x]: Invalid value: "a||y": ...`.
 *
 * @example
 * ```ts
 * parseLabelSelector('x in (b,a,,),!y').toString(); // 'x in (,a,b),!y'
 * ```
 */
export function parseLabelSelector(text: string, options: LabelRequirementOptions = {}): LabelSelector {
  if (typeof text !== 'string') {
    throw new SelectorParseError(`invalid label selector: expected a string, got ${text === null ? 'null' : typeof text}`);
  }
  return new LabelSelector(sortByKey(parseRequirements(text, toPath(options.path))));
}

/**
 * A selector that matches exactly the given labels (`labels.SelectorFromSet`): one `=` requirement
 * per entry, sorted by key. Keys and values are not validated (the server would reject bad ones);
 * use {@link validatedLabelSelectorFromSet} to check them first. `null`/`undefined` and `{}` give the
 * empty selector.
 */
export function labelSelectorFromSet(set: Readonly<Record<string, string>> | null | undefined): LabelSelector {
  if (set == null) return everything;
  const keys = sortGoStrings(Object.keys(set).filter((k) => typeof set[k] === 'string'));
  if (keys.length === 0) return everything;
  return new LabelSelector(keys.map((k) => makeRequirement(k, '=', [set[k]])));
}

/**
 * Like {@link labelSelectorFromSet}, but each entry is validated as a requirement first
 * (`labels.ValidatedSelectorFromSet`).
 *
 * @throws {@link SelectorParseError} for the first invalid entry in key order, e.g.
 *   `values[0][Key]: Invalid value: "...": must be no more than 63 bytes`.
 */
export function validatedLabelSelectorFromSet(set: Readonly<Record<string, string>> | null | undefined): LabelSelector {
  if (set == null) return everything;
  for (const key of sortGoStrings(Object.keys(set))) {
    const errs = validateLabelRequirement(key, '=', [set[key]]);
    if (errs.length > 0) throw new SelectorParseError(aggregateMessage(errs), { fieldErrors: errs });
  }
  return labelSelectorFromSet(set);
}
