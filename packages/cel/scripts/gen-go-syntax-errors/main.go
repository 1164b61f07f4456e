// Command gen-go-syntax-errors writes what kube-apiserver 1.34.4's CEL environment answers when it
// compiles each expression of a corpus: the text of the compile issues (cel-go's
// Issues.String(), which is Errors.ToDisplayString(): every error as `ERROR: <input>:L:C: msg`
// with the source line and a caret, sorted by position, at most 100), or nothing when the
// expression parses. These are the test vectors of kubekit's syntax error reporter
// (test/fixtures/syntax-errors.json).
//
// Only the parse is asked for (Env.Parse): a syntax error stops cel-go's Compile before the
// checker, so the parse issues are what the apiserver reports for these expressions; an
// expression that parses is recorded with "error": "" and is checked by kubekit's parser only
// for being accepted.
//
// The environment is the apiserver's (environment.MustBaseEnvSet at the default compatibility
// version, StoredExpressions): its macros (the standard ones, cel.bind, the two-variable
// comprehensions, optMap and optFlatMap), optional syntax, and cel-go's default parser limits
// (recursion depth 250, 100,000 code points, 100 reported errors, 30 error recoveries, 256
// tokens of recovery lookahead), which the apiserver does not change.
//
// The corpus is corpus.json in this directory (a list of {"source", "expression"}) followed by
// expressions this command makes from the realistic rules in rules.json (every prefix at each token
// boundary, each punctuation character left out, a stray character put in), a few generated
// extremes (deep nesting, long inputs, many errors) and 2,500 random strings of tokens.
//
// Usage (from this directory): go run . > ../../test/fixtures/syntax-errors.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/google/cel-go/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Case is one expression of the corpus, with where it comes from.
type Case struct {
	Source     string `json:"source"`
	Expression string `json:"expression"`
}

// Answer is the apiserver's answer for a Case.
type Answer struct {
	Case
	// Error is the issues' text, "" when the expression parses.
	Error string `json:"error"`
}

func main() {
	env, err := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion(), true).Env(environment.StoredExpressions)
	if err != nil {
		fail(err)
	}
	var cases []Case
	cases = append(cases, readCases("corpus.json")...)
	rules := readCases("rules.json")
	cases = append(cases, prefixes(rules)...)
	cases = append(cases, edits(rules)...)
	cases = append(cases, extremes()...)
	cases = append(cases, randomTokens(2500)...)

	seen := map[string]bool{}
	answers := []Answer{}
	for _, c := range cases {
		if seen[c.Expression] {
			continue
		}
		seen[c.Expression] = true
		answers = append(answers, Answer{Case: c, Error: parse(env, c.Expression)})
	}
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	out.SetIndent("", "  ")
	if err := out.Encode(answers); err != nil {
		fail(err)
	}
}

func parse(env *cel.Env, expression string) string {
	_, iss := env.Parse(expression)
	if iss == nil || iss.Err() == nil {
		return ""
	}
	return iss.String()
}

func readCases(name string) []Case {
	raw, err := os.ReadFile(name)
	if err != nil {
		fail(err)
	}
	var cases []Case
	if err := json.Unmarshal(raw, &cases); err != nil {
		fail(fmt.Errorf("%s: %w", name, err))
	}
	return cases
}

// prefixes cuts each rule after every token (a cut inside a string literal too), the way a rule
// typed or pasted half-way looks.
func prefixes(rules []Case) []Case {
	var out []Case
	for _, r := range rules {
		runes := []rune(r.Expression)
		for i := 1; i < len(runes); i++ {
			if runes[i-1] == ' ' || (isWord(runes[i-1]) && isWord(runes[i])) {
				continue
			}
			out = append(out, Case{Source: "prefix of " + r.Source, Expression: string(runes[:i])})
		}
		out = append(out, r)
	}
	return out
}

// edits makes the slips of hand one character makes in a rule: each punctuation character left out,
// and a stray ')', ',', '.' or '#' put in after each punctuation character.
func edits(rules []Case) []Case {
	var out []Case
	for _, r := range rules {
		runes := []rune(r.Expression)
		for i, c := range runes {
			if isWord(c) || c == ' ' {
				continue
			}
			out = append(out, Case{Source: "one character left out of " + r.Source, Expression: string(runes[:i]) + string(runes[i+1:])})
			for _, extra := range []rune{')', ',', '.', '#'} {
				out = append(out, Case{Source: "one character put into " + r.Source, Expression: string(runes[:i+1]) + string(extra) + string(runes[i+1:])})
			}
		}
	}
	return out
}

func isWord(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// extremes are the inputs that reach cel-go's limits.
func extremes() []Case {
	var out []Case
	for _, n := range []int{10, 100, 248, 249, 250, 251, 300} {
		out = append(out, Case{Source: fmt.Sprintf("%d nested parentheses", n), Expression: strings.Repeat("(", n) + "1" + strings.Repeat(")", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d nested lists", n), Expression: strings.Repeat("[", n) + "1" + strings.Repeat("]", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d unary minus", n), Expression: strings.Repeat("-", n) + "x"})
		out = append(out, Case{Source: fmt.Sprintf("%d selects", n), Expression: "a" + strings.Repeat(".b", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d additions", n), Expression: "1" + strings.Repeat(" + 1", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d ands", n), Expression: "true" + strings.Repeat(" && true", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d calls", n), Expression: strings.Repeat("f(", n) + "1" + strings.Repeat(")", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d indexes", n), Expression: "a" + strings.Repeat("[0]", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d conditionals", n), Expression: strings.Repeat("a ? b : ", n) + "c"})
		out = append(out, Case{Source: fmt.Sprintf("%d open parentheses", n), Expression: strings.Repeat("(", n)})
	}
	for _, n := range []int{20, 29, 30, 31, 50, 99, 100, 101, 150} {
		out = append(out, Case{Source: fmt.Sprintf("%d stray operators", n), Expression: "a" + strings.Repeat(" + ", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d stray closing parentheses", n), Expression: "a" + strings.Repeat(")", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d stray characters", n), Expression: strings.Repeat("#", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d juxtaposed identifiers", n), Expression: strings.Repeat("a ", n)})
		out = append(out, Case{Source: fmt.Sprintf("%d empty arguments", n), Expression: "f(" + strings.Repeat(",", n) + ")"})
	}
	out = append(out, Case{Source: "100,000 code points", Expression: strings.Repeat("1", 100_000)})
	out = append(out, Case{Source: "100,001 code points", Expression: strings.Repeat("1", 100_001)})
	out = append(out, Case{Source: "long list of errors", Expression: strings.Repeat("a b ", 60)})
	return out
}

// tokens are the pieces randomTokens strings together: names, reserved words, literals of every kind
// (out of range, escaped, raw, triple-quoted, unterminated), operators, optional syntax, comments,
// stray characters, and the openings of calls and macros.
var tokens = []string{
	"a", "b", "x", "f", "m", "x.y", "a.b", "Msg", "pkg.Msg", "has", "in", "if", "let", "true", "false", "null",
	"0", "1", "-1", "1u", "1.5", ".5", "1e999", "0x1F", "-0x1", "9223372036854775808", "18446744073709551616u",
	`"s"`, `"\u00e9"`, `b"b"`, `B"\xff"`, `r"\"`, "r'x", `'''x'''`, `"""t`, "`a-b`", "`q`",
	".", ".?", "?", ":", ",", "(", ")", "[", "[?", "]", "{", "{?", "}",
	"+", "-", "- -", "*", "/", "%", "!", "!!", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "=",
	"//c\n", "\n", "\t", "#", "$", "é",
	"Msg{", "a.b{", ".a", "f(", "f( )", "a.m(", "a[", "has(", "a.all(", ".exists(", ".map(", "x,",
	".optMap(", ".sortBy(", "existsOne(", ".transformList(",
}

// randomTokens makes n distinct strings of 1 to 12 tokens, joined with spaces or with nothing, from a
// fixed seed (the same corpus on every run): combinations no one would write, where a parser's error
// recovery shows.
func randomTokens(n int) []Case {
	state := uint32(20261128)
	next := func(k int) int {
		state = state*1664525 + 1013904223
		return int((state >> 8) % uint32(k))
	}
	seen := map[string]bool{}
	var out []Case
	for len(out) < n {
		parts := make([]string, 1+next(12))
		for i := range parts {
			parts[i] = tokens[next(len(tokens))]
		}
		sep := " "
		if next(2) == 0 {
			sep = ""
		}
		e := strings.Join(parts, sep)
		if seen[e] {
			continue
		}
		seen[e] = true
		out = append(out, Case{Source: "random tokens", Expression: e})
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
