import { expect } from 'chai';
import {
  isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, validateLabelKey, validateLabelValue, validateLabels,
} from '@kubekit/selectors';
import { group, labelCases, title } from './helpers/fixtures.js';

describe('validateLabelKey', () => {
  for (const c of group(labelCases, 'labelKey')) {
    it(`does ${title(c)}`, () => {
      expect(validateLabelKey(c.input as string)).to.deep.equal((c.expected as { errors: string[] }).errors);
    });
  }

  it('keeps the label selector parser\'s words, which a qualified name does not share', () => {
    expect(validateLabelKey('only/one/slash')[0]).to.match(/^a valid label key must consist of /);
    expect(validateLabelKey(`${'p'.repeat(254)}/x`)).to.deep.equal(['prefix part must be no more than 253 bytes']);
  });

  it('counts bytes, not characters, against the 63 limit', () => {
    expect(validateLabelKey('a'.repeat(62) + 'é')).to.include('name part must be no more than 63 bytes');
  });
});

describe('validateLabelValue', () => {
  for (const c of group(labelCases, 'labelValue')) {
    it(`does ${title(c)}`, () => {
      expect(validateLabelValue(c.input as string)).to.deep.equal((c.expected as { errors: string[] }).errors);
    });
  }
});

// upstream (kube-apiserver 1.34): staging/src/k8s.io/apimachinery/pkg/util/validation/validation_test.go
// TestIsQualifiedName and TestIsValidLabelValue; the words are pkg/util/validation's (MaxLenError says
// "characters", the key's noun is "a qualified name"), as kube-apiserver 1.34.4 answers for metadata.labels,
// metadata.annotations and metadata.finalizers (packages/apiserver/test/objectMetaWords.test.ts).
describe('isQualifiedName', () => {
  it('accepts the upstream success cases and rejects the error cases (TestIsQualifiedName)', () => {
    const ok = ['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple', 'now-with-dashes/now-with-dashes',
      'now.with.dots/simple', 'now-with.dashes-and.dots/simple', '1-num.2-num/3-num', '1234/5678', '1.2.3.4/5678', 'Uppercase_Is_OK_123',
      'example.com/Uppercase_Is_OK_123', 'requests.storage-foo', 'a'.repeat(63), `${'a'.repeat(253)}/${'b'.repeat(63)}`];
    const bad = ['nospecialchars%^=@', 'cantendwithadash-', '-cantstartwithadash-', 'only/one/slash', 'Example.com/abc', 'example_com/abc',
      'example.com/', '/simple', 'a'.repeat(64), `${'a'.repeat(254)}/abc`];
    for (const v of ok) expect(isQualifiedName(v), v).to.deep.equal([]);
    for (const v of bad) expect(isQualifiedName(v), v).to.not.deep.equal([]);
  });

  it('words its messages as pkg/util/validation does', () => {
    expect(isQualifiedName('only/one/slash')).to.deep.equal([
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
    expect(isQualifiedName('a'.repeat(64))).to.deep.equal(['name part must be no more than 63 characters']);
    expect(isQualifiedName(`${'p'.repeat(254)}/x`)).to.deep.equal(['prefix part must be no more than 253 characters']);
    expect(isQualifiedName('/x')).to.deep.equal(['prefix part must be non-empty']);
    expect(isQualifiedName('x/')).to.deep.equal(['name part must be non-empty', "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]);
  });

  it('counts bytes against the 63 limit although it says characters', () => {
    expect(isQualifiedName('a'.repeat(62) + 'é')).to.include('name part must be no more than 63 characters');
  });
});

describe('isValidLabelValue', () => {
  it('accepts the upstream success cases and rejects the error cases (TestIsValidLabelValue)', () => {
    for (const v of ['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'a'.repeat(63), '']) expect(isValidLabelValue(v), v).to.deep.equal([]);
    const bad = ['nospecialchars%^=@', 'Tama-nui-te-rā.is.Māori.sun', '\\backslashes\\are\\bad', '-starts-with-dash', 'ends-with-dash-', '.starts.with.dot',
      'ends.with.dot.', 'a'.repeat(64)];
    for (const v of bad) expect(isValidLabelValue(v), v).to.not.deep.equal([]);
  });

  it('says characters where the selector parser\'s validateLabelValue says bytes', () => {
    expect(isValidLabelValue('a'.repeat(64))).to.deep.equal(['must be no more than 63 characters']);
    expect(validateLabelValue('a'.repeat(64))).to.deep.equal(['must be no more than 63 bytes']);
  });
});

// upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/validation_test.go TestIsDNS1123Label,
// TestIsDNS1123Subdomain, TestIsDNS1035Label (good and bad values).
const labelGood = ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a'.repeat(63)];
const labelBad = ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2',
  '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'a'.repeat(64)];

describe('isDNS1123Label', () => {
  it('accepts the upstream good values and rejects the bad ones (TestIsDNS1123Label)', () => {
    for (const v of labelGood) expect(isDNS1123Label(v), v).to.deep.equal([]);
    for (const v of labelBad) expect(isDNS1123Label(v), v).to.not.deep.equal([]);
  });

  it('words its messages as pkg/util/validation does', () => {
    expect(isDNS1123Label('a.b')).to.deep.equal(['must not contain dots']);
    expect(isDNS1123Label('A')).to.deep.equal(["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]);
    expect(isDNS1123Label('a'.repeat(64))).to.deep.equal(['must be no more than 63 characters']);
  });
});

describe('isDNS1123Subdomain', () => {
  it('accepts the upstream good values and rejects the bad ones (TestIsDNS1123Subdomain)', () => {
    const good = [...labelGood.slice(0, 12), 'a.a', 'ab.a', 'abc.a', 'a1.a', 'a-1.a', 'a--1--2--b.a', 'a.1', 'ab.1', 'abc.1', 'a1.1', 'a-1.1',
      'a--1--2--b.1', '0.a', '01.a', '012.a', '1a.a', '1-a.a', '0.1', '01.1', '012.1', '1a.1', '1-a.1', '1--a--b--2.1', 'a.b.c.d.e',
      'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', 'a'.repeat(253)];
    const bad = ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.',
      '.a', 'a..b', '1.', '.1', '1..2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'A.a', 'aB.a', 'ab.A', 'A1.a', 'a1.A', 'A.1', 'aB.1',
      'A1.1', '1A.1', '0.A', '01.A', '012.A', '1A.a', '1a.A', 'A.B.C.D.E', 'AA.BB.CC.DD.EE', 'a.B.c.d.e', 'aa.bB.cc.dd.ee', 'a@b', 'a,b',
      'a_b', 'a;b', 'a:b', 'a%b', 'a?b', 'a$b', 'a'.repeat(254)];
    for (const v of good) expect(isDNS1123Subdomain(v), v).to.deep.equal([]);
    for (const v of bad) expect(isDNS1123Subdomain(v), v).to.not.deep.equal([]);
    expect(isDNS1123Subdomain('a'.repeat(254))).to.deep.equal(['must be no more than 253 characters']);
  });
});

describe('isDNS1035Label', () => {
  it('accepts the upstream good values and rejects the bad ones (TestIsDNS1035Label)', () => {
    for (const v of ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', 'a'.repeat(63)]) expect(isDNS1035Label(v), v).to.deep.equal([]);
    for (const v of ['0', '01', '012', '1a', '1-a', '1--a--b--2', ...labelBad]) expect(isDNS1035Label(v), v).to.not.deep.equal([]);
    expect(isDNS1035Label('1a')).to.deep.equal(["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]);
  });
});

describe('validateLabels', () => {
  // upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation_test.go TestValidateLabels
  it('accepts the upstream success cases', () => {
    const ok = ['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple', 'now-with-dashes/now-with-dashes',
      'now.with.dots/simple', 'now-with.dashes-and.dots/simple', '1-num.2-num/3-num', '1234/5678', '1.2.3.4/5678', 'UpperCaseAreOK123'];
    for (const k of ok) expect(validateLabels({ [k]: 'bar' }, 'field'), k).to.deep.equal([]);
    expect(validateLabels({ goodvalue: '123_-.BaR' }, 'field')).to.deep.equal([]);
  });

  it('reports exactly one error with the upstream detail for each bad key or value', () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'nospecialchars^=@': 'bar' }, 'name part must consist of'],
      [{ 'cantendwithadash-': 'bar' }, 'name part must consist of'],
      [{ 'only/one/slash': 'bar' }, 'a qualified name must consist of'],
      [{ ['a'.repeat(254)]: 'bar' }, 'must be no more than'],
      [{ toolongvalue: 'a'.repeat(64) }, 'must be no more than'],
      [{ backslashesinvalue: 'some\\bad\\value' }, 'a valid label must be an empty string or consist of'],
      [{ nocommasallowed: 'bad,value' }, 'a valid label must be an empty string or consist of'],
      [{ strangecharsinvalue: '?#$notsogood' }, 'a valid label must be an empty string or consist of'],
    ];
    for (const [labels, detail] of cases) {
      const errs = validateLabels(labels, 'field');
      expect(errs, JSON.stringify(labels)).to.have.length(1);
      expect(errs[0].detail).to.contain(detail);
      expect(errs[0].field).to.equal('field');
    }
  });

  it('words a long key and value as metadata validation does (pkg/util/validation)', () => {
    expect(validateLabels({ ['a'.repeat(64)]: 'v'.repeat(64) }, 'metadata.labels').map((e) => e.detail)).to.deep.equal([
      'name part must be no more than 63 characters', 'must be no more than 63 characters',
    ]);
  });

  it('prints errors as the apiserver does for metadata.labels', () => {
    expect(validateLabels({ 'app_': 'x', ok: 'a b' }, 'metadata.labels').map(String)).to.deep.equal([
      'metadata.labels: Invalid value: "app_": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'metadata.labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
    ]);
    expect(validateLabels(undefined, 'metadata.labels')).to.deep.equal([]);
  });
});
