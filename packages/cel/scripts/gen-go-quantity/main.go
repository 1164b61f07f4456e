// Command gen-go-quantity writes what kube-apiserver's CEL environment (k8s.io/apiserver v0.34.4's
// base environment with its quantity library, on cel-go v0.26) answers for CEL expressions: each
// expression's value, or its compile or runtime error. The answers are the test vectors of kubekit's
// quantity library (test/fixtures/quantity-go.json).
//
// The expressions are those of expressions.json (read from stdin) in this directory: k8s.io/apiserver's
// pkg/cel/library/quantity_test.go cases and kubekit's (exponents far beyond ±1000, values held as
// int64Amount or inf.Dec by resource.Quantity, rounding up to 10⁻⁹, the BinarySI cap). An expression
// that Go does not answer within -timeout (resource.Quantity builds 10^n as a big number for some
// exponents) is written with "timeout": true; kubekit must answer it all the same, in its own time.
// Each expression runs in a child process (this command with -eval), so one that never ends is killed.
//
// Usage (from this directory): go run . < expressions.json > ../../test/fixtures/quantity-go.json
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Answer is the environment's answer for one expression.
type Answer struct {
	Source string `json:"source"`
	Expr   string `json:"expr"`
	// Value is the result: a bool, an int (as a decimal string), a double (as Go's %v prints it,
	// "+Inf" included) or a quantity (as its String()).
	Value any `json:"value,omitempty"`
	// Type is the result's CEL type name.
	Type string `json:"type,omitempty"`
	// Error is the compile ("compile: …") or evaluation error.
	Error string `json:"error,omitempty"`
	// Timeout says Go gave no answer in time.
	Timeout bool `json:"timeout,omitempty"`
}

func main() {
	timeout := flag.Duration("timeout", 5*time.Second, "time given to one expression")
	one := flag.String("eval", "", "evaluate this expression and print its answer (the child's mode)")
	flag.Parse()
	if *one != "" {
		env, err := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion(), true).Env(environment.StoredExpressions)
		check(err)
		check(json.NewEncoder(os.Stdout).Encode(evaluate(env, *one)))
		return
	}
	var groups []struct {
		Source string   `json:"source"`
		Exprs  []string `json:"exprs"`
	}
	check(json.NewDecoder(os.Stdin).Decode(&groups))
	self, err := os.Executable()
	check(err)
	var answers []Answer
	for _, g := range groups {
		for _, e := range g.Exprs {
			a := Answer{Expr: e, Timeout: true}
			ctx, cancel := context.WithTimeout(context.Background(), *timeout)
			if text, err := exec.CommandContext(ctx, self, "-eval", e).Output(); err == nil {
				a = Answer{}
				check(json.Unmarshal(text, &a))
			} else if ctx.Err() == nil {
				panic(fmt.Sprintf("%s: %v", e, err))
			}
			cancel()
			a.Source = g.Source
			answers = append(answers, a)
		}
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

func evaluate(env *cel.Env, e string) Answer {
	a := Answer{Expr: e}
	ast, iss := env.Compile(e)
	if iss.Err() != nil {
		a.Error = "compile: " + iss.Err().Error()
		return a
	}
	prg, err := env.Program(ast)
	if err != nil {
		a.Error = "program: " + err.Error()
		return a
	}
	v, _, err := prg.Eval(cel.NoVars())
	if err != nil {
		a.Error = err.Error()
		return a
	}
	a.Type = v.Type().(ref.Type).TypeName()
	switch x := v.Value().(type) {
	case *resource.Quantity:
		a.Value = x.String()
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			a.Value = fmt.Sprint(x)
		} else {
			a.Value = x
		}
	case int64:
		a.Value = fmt.Sprint(x)
	default:
		a.Value = x
	}
	return a
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
