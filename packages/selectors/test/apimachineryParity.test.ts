// Differential parity: every case of fixtures/apimachinery_oracle.json is an input answered by the
// real k8s.io/apimachinery code (see the fixture's `source`); kubekit must give the same answer.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  SelectorParseError, convertSelectorToLabelsMap, formatLabelRequirement, isDNS1035Label, isDNS1123Label,
  isDNS1123Subdomain, labelSelectorFromObject, newLabelRequirement, parseFieldSelector, parseLabelSelector,
  unescapeFieldValue, validateLabelKey, validateLabelValue, type LabelOperator, type LabelSelectorObject,
} from '@kubekit/selectors';

interface OracleRequest {
  op: string;
  text?: string;
  set?: Record<string, string> | null;
  obj?: LabelSelectorObject | null;
  key?: string;
  operator?: string;
  values?: string[] | null;
}

interface OracleCase {
  request: OracleRequest;
  response: Record<string, unknown>;
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/apimachinery_oracle.json', import.meta.url), 'utf8')) as { cases: OracleCase[] };

function answer(r: OracleRequest): Record<string, unknown> {
  const res: Record<string, unknown> = {};
  const text = r.text ?? '';
  const capture = (fn: () => void): void => {
    try {
      fn();
    } catch (err) {
      if (!(err instanceof SelectorParseError)) throw err;
      res.error = err.message;
    }
  };
  const messages = (msgs: string[]): void => {
    if (msgs.length > 0) res.messages = msgs;
  };
  switch (r.op) {
    case 'fieldParse':
    case 'fieldMatch':
      capture(() => {
        const sel = parseFieldSelector(text);
        res.string = sel.toString();
        res.empty = sel.isEmpty();
        res.requirements = sel.requirements().map((q) => ({ field: q.field, operator: q.operator, value: q.value }));
        if (r.op === 'fieldMatch') res.matches = sel.matches(r.set ?? {});
      });
      break;
    case 'labelParse':
    case 'labelMatch':
      capture(() => {
        const sel = parseLabelSelector(text);
        res.string = sel.toString();
        res.empty = sel.isEmpty();
        res.requirements = sel.requirements().map((q) => ({ key: q.key, operator: q.operator, values: [...q.values] }));
        if (r.op === 'labelMatch') res.matches = sel.matches(r.set ?? {});
      });
      break;
    case 'labelObj':
      capture(() => {
        const sel = labelSelectorFromObject(r.obj);
        res.string = sel.toString();
        res.empty = sel.isEmpty();
        res.nothing = sel.matchesNothing();
        res.requirements = sel.requirements().map((q) => ({ key: q.key, operator: q.operator, values: [...q.values] }));
        if (r.set != null) res.matches = sel.matches(r.set);
      });
      break;
    case 'newRequirement':
      capture(() => {
        res.string = formatLabelRequirement(newLabelRequirement(r.key ?? '', r.operator as LabelOperator, r.values ?? null));
      });
      break;
    case 'labelKey': messages(validateLabelKey(text)); break;
    case 'labelValue': messages(validateLabelValue(text)); break;
    case 'dns1123Label': messages(isDNS1123Label(text)); break;
    case 'dns1123Subdomain': messages(isDNS1123Subdomain(text)); break;
    case 'dns1035Label': messages(isDNS1035Label(text)); break;
    case 'unescape': capture(() => { res.string = unescapeFieldValue(text); }); break;
    case 'convert': capture(() => { res.requirements = convertSelectorToLabelsMap(text); }); break;
    default: throw new Error(`unknown oracle op ${r.op}`);
  }
  return res;
}

describe('apimachinery parity (differential cases answered by the Go code)', () => {
  const byOp = new Map<string, OracleCase[]>();
  for (const c of fixture.cases) byOp.set(c.request.op, [...(byOp.get(c.request.op) ?? []), c]);
  for (const [op, cases] of byOp) {
    it(`does ${op} exactly as apimachinery for ${cases.length} generated inputs`, () => {
      for (const c of cases) expect(answer(c.request), JSON.stringify(c.request)).to.deep.equal(c.response);
    });
  }
});
