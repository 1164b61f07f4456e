// Command gen-go-regex writes what Go's regexp package (the engine kube-apiserver's CEL `find` and
// `findAll` run on) answers for pairs of a pattern and a text: the compile error, or FindString and
// FindAllString with n = -1, 0, 1 and 2. The answers are the test vectors of kubekit's regex engine
// (test/fixtures/regex-go.json).
//
// The pairs are Go's own regexp test tables, read from the Go installation that runs this command
// (findTests in $GOROOT/src/regexp/find_test.go and the RE2 search tests in
// $GOROOT/src/regexp/testdata/re2-search.txt), followed by the pairs of extra.json in this
// directory (kubekit's cases: flags, classes, empty matches, non-ASCII text, patterns only one of
// RE2 and JavaScript accepts). Pairs whose pattern or text is not valid UTF-8 are left out: a CEL
// string is Unicode text.
//
// Usage (from this directory): go run . > ../../test/fixtures/regex-go.json
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Pair is a pattern and a text, with where the pair comes from.
type Pair struct {
	Source  string `json:"source"`
	Pattern string `json:"pattern"`
	Text    string `json:"text"`
}

// Answer is Go's answer for a Pair.
type Answer struct {
	Pair
	// Error is regexp.Compile's error text; the other fields are then absent.
	Error string `json:"error,omitempty"`
	// Find is FindString's result, nil when there is no match (FindString then answers "").
	Find *string `json:"find,omitempty"`
	// All holds FindAllString(text, n) for n = -1, 0, 1, 2 (nil results as empty lists).
	All [][]string `json:"all,omitempty"`
}

func main() {
	root := runtime.GOROOT()
	var pairs []Pair
	pairs = append(pairs, findTests(filepath.Join(root, "src", "regexp", "find_test.go"))...)
	pairs = append(pairs, re2Search(filepath.Join(root, "src", "regexp", "testdata", "re2-search.txt"))...)
	pairs = append(pairs, extra("extra.json")...)

	seen := map[[2]string]bool{}
	var answers []Answer
	for _, p := range pairs {
		if !utf8.ValidString(p.Pattern) || !utf8.ValidString(p.Text) || seen[[2]string{p.Pattern, p.Text}] {
			continue
		}
		seen[[2]string{p.Pattern, p.Text}] = true
		answers = append(answers, answer(p))
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fmt.Fprintln(out, "[")
	for i, a := range answers {
		b, err := json.Marshal(a)
		check(err)
		sep := ","
		if i == len(answers)-1 {
			sep = ""
		}
		fmt.Fprintf(out, "%s%s\n", b, sep)
	}
	fmt.Fprintln(out, "]")
}

func answer(p Pair) Answer {
	a := Answer{Pair: p}
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	if loc := re.FindStringIndex(p.Text); loc != nil {
		s := p.Text[loc[0]:loc[1]]
		a.Find = &s
	}
	for _, n := range []int{-1, 0, 1, 2} {
		all := re.FindAllString(p.Text, n)
		if all == nil {
			all = []string{}
		}
		a.All = append(a.All, all)
	}
	return a
}

// findTests reads the pattern and text of each element of findTests (its first two fields).
func findTests(path string) []Pair {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	check(err)
	var pairs []Pair
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok || len(spec.Names) != 1 || spec.Names[0].Name != "findTests" {
			return true
		}
		for _, elt := range spec.Values[0].(*ast.CompositeLit).Elts {
			fields := elt.(*ast.CompositeLit).Elts
			pat, ok1 := literal(fields[0])
			text, ok2 := literal(fields[1])
			if ok1 && ok2 {
				pairs = append(pairs, Pair{"go:regexp/find_test.go", pat, text})
			}
		}
		return false
	})
	if len(pairs) == 0 {
		panic("no findTests in " + path)
	}
	return pairs
}

func literal(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// re2Search reads the file's blocks of quoted strings followed by quoted regexps (each regexp
// followed by a line of expected positions, which this command does not need: Go answers).
func re2Search(path string) []Pair {
	data, err := os.ReadFile(path)
	check(err)
	var pairs []Pair
	var texts []string
	mode := ""
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case line == "strings":
			mode, texts = "strings", nil
		case line == "regexps":
			mode = "regexps"
		case strings.HasPrefix(line, `"`):
			s, err := strconv.Unquote(line)
			if err != nil {
				continue
			}
			if mode == "strings" {
				texts = append(texts, s)
			} else if mode == "regexps" {
				for _, t := range texts {
					pairs = append(pairs, Pair{"go:regexp/testdata/re2-search.txt", s, t})
				}
			}
		}
	}
	if len(pairs) == 0 {
		panic("no pairs in " + path)
	}
	return pairs
}

// extra reads a JSON array of {source, pattern, texts}.
func extra(path string) []Pair {
	data, err := os.ReadFile(path)
	check(err)
	var groups []struct {
		Source  string   `json:"source"`
		Pattern string   `json:"pattern"`
		Texts   []string `json:"texts"`
	}
	check(json.Unmarshal(data, &groups))
	var pairs []Pair
	for _, g := range groups {
		for _, t := range g.Texts {
			pairs = append(pairs, Pair{g.Source, g.Pattern, t})
		}
	}
	return pairs
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
