// Command gen-yaml-vectors writes test vectors for the embedded server's YAML answers: for JSON
// documents, the bytes sigs.k8s.io/yaml's JSONToYAML gives (what kube-apiserver 1.34.4 answers for
// `Accept: application/yaml`), or its error. The inputs are hand-written edge cases of go-yaml v2's
// quoting, folding, number and key-order rules, seeded random documents, and realistic objects.
//
// Usage (from this directory): go run . > ../../fixtures/go-yaml-vectors.json
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// Vector is one JSON input and what JSONToYAML made of it.
type Vector struct {
	Kind  string  `json:"kind"`
	JSON  string  `json:"json"`
	YAML  *string `json:"yaml,omitempty"`
	Error *string `json:"error,omitempty"`
	// Unstable marks an input whose YAML differs between runs: go-yaml sorts map keys with an order
	// that is not transitive for some keys, and Go's map order is random.
	Unstable bool `json:"unstable,omitempty"`
}

func main() {
	var out []Vector
	add := func(kind, in string) {
		v := Vector{Kind: kind, JSON: in}
		y, err := yaml.JSONToYAML([]byte(in))
		if err != nil {
			e := err.Error()
			v.Error = &e
		} else {
			s := string(y)
			v.YAML = &s
			for i := 0; i < 20; i++ {
				again, _ := yaml.JSONToYAML([]byte(in))
				if string(again) != s {
					v.Unstable = true
				}
			}
		}
		out = append(out, v)
	}
	for _, in := range handWritten() {
		add("hand", in)
	}
	r := rand.New(rand.NewSource(20261128))
	for i := 0; i < 1000; i++ {
		b, err := json.Marshal(randomValue(r, 0))
		if err != nil {
			panic(err)
		}
		add("random", string(b))
	}
	for _, in := range realistic() {
		add("realistic", in)
	}
	// One vector a line, for readable diffs.
	w := bufio.NewWriter(os.Stdout)
	w.WriteString("[\n")
	for i, v := range out {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			panic(err)
		}
		line := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		w.Write(line)
		if i < len(out)-1 {
			w.WriteString(",")
		}
		w.WriteString("\n")
	}
	w.WriteString("]\n")
	if err := w.Flush(); err != nil {
		panic(err)
	}
}

// mustJSON is the JSON text encoding/json writes for v (as kube-apiserver writes objects).
func mustJSON(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func handWritten() []string {
	var in []string
	str := func(s string) { in = append(in, mustJSON(map[string]interface{}{"v": s, s: "k"})) }
	for _, s := range []string{
		"", " ", "  ", "a", "y", "Y", "yes", "Yes", "YES", "yEs", "n", "N", "no", "No", "NO", "on", "On", "ON", "oN",
		"off", "Off", "OFF", "true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "null", "Null", "NULL", "nULL", "~",
		"1", "-1", "+1", "0", "-0", "00", "08", "09", "0777", "0o7", "0O7", "0x1f", "0X1F", "0x", "0b101", "0B101", "0b-1",
		"0b+1", "-0b1", "-0b-1", "0b2", "1_000", "_1", "1_", "+_1", "1__0", "0x_1F", ".5", "-.5", "+.5", "5.", "1.5",
		"1e3", "1E3", "1e+3", "1e-3", "1e400", "-1e400", ".5e400", "1e", ".", "..", "...", "....", "---", "--", "-", "- ", "-a",
		".inf", ".Inf", ".INF", "-.inf", "+.inf", ".NaN", ".nan", ".NAN", ".Nan", "inf", "NaN", "Infinity", ".5_5", "._5", ".1e5",
		"9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775808",
		"-9223372036854775809", "0x7FFFFFFFFFFFFFFF", "0xFFFFFFFFFFFFFFFF", "0x10000000000000000",
		"1:20", "1:60", "-1:20:30.5", "190:20:30", "1:2:3:4", "12:30", "a:b", "a: b", "a :b", "a:", ":a", ": a", "?", "? a", "?a",
		"2026-11-28T02:55:57Z", "2026-11-28t02:55:57Z", "2026-11-28T02:55:57.123456789Z", "2026-11-28T02:55:57,5Z",
		"2026-11-28T02:55:57+01:00", "2026-11-28T02:55:57+25:00", "2026-11-28T24:00:00Z", "2026-11-28T02:60:00Z",
		"2026-11-28", "2026-1-2", "2026-13-01", "2026-02-29", "2024-02-29", "2026-11-28 02:55:57", "2026-11-28   2:5:7.5",
		"2026-11-28T02:55:57", "26-11-28", "20261-11-28", "2026-11-28x", "2001-12-14 21:59:43.10 -5",
		"#a", "a#b", "a #b", "a# b", "!a", "&a", "*a", "|a", ">a", "%a", "@a", "`a", "'a", "\"a", "a'b", "a\"b", "[a", "a[b", "{a",
		"a}", ",a", "a,b", "a, b", "<<", "=", "a\\b", "a\tb", "\ta", "a\t", "a\nb", "\na", "a\n", "\n", "\n\n", "a\n\n", " a\nb",
		"a \nb", "a\n b", "a\r\nb", "a\rb", "\r", "\u0085", "a\u0085b", "a\u2028b", "\u2028", "a\u2029", "a\u00a0b", "\u00a0",
		"\x00", "a\x01b", "\x1b", "\x7f", "\u0080", "\u009f", "\u00ff", "\u0100", "\ufeff", "\ufeffab c", "a\ufeff", "\ufffd",
		"\ufffe", "\uffff", "\U0001F600", "a\U0001F600b", "\U0010FFFF", "é", "日本語", "\ud7ff", "\ue000",
		" a", "a ", " a ", "a  b", "a \u00a0b",
		"a\n\n\nb", "line1\nline2\n", "line1\nline2\n\n", "  indented\nx", "trailing \nspace", "x\n  y\n", "a\u2028\nb",
		"<a>&b", "\u2028\u2029", "a\u2028 b", "key: value\nother: x",
	} {
		str(s)
	}
	// Long strings around the folding width, at several depths.
	words := []string{"alpha", "be", "c", "delta-epsilon", "x", "zeta:eta", "'q'", "a#b", "long" + strings.Repeat("o", 90)}
	for n := 70; n <= 100; n++ {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			if b.Len() > 0 {
				b.WriteString(" ")
			}
			b.WriteString(words[i%len(words)])
		}
		s := b.String()[:n]
		in = append(in, mustJSON(map[string]interface{}{"v": s}))
		in = append(in, mustJSON(map[string]interface{}{"a": map[string]interface{}{"b": []interface{}{map[string]interface{}{"v": s, "w": []interface{}{s}}}}}))
		in = append(in, mustJSON([]interface{}{s, "1 " + s, s + "\t", "\"" + s, s + "\n" + s, "y " + s}))
		in = append(in, mustJSON(map[string]interface{}{strings.Repeat("k", n+40) + " " + s: s, strings.Repeat("é", n): 1}))
		in = append(in, mustJSON(s))
	}
	for _, s := range []string{
		strings.Repeat("a", 200), strings.Repeat("a ", 100), strings.Repeat("word ", 40) + "end", strings.Repeat("x", 85) + " y z",
		strings.Repeat("ab  ", 40), strings.Repeat("ab\u00a0", 40) + " x y", strings.Repeat("é ", 60),
		strings.Repeat("\U0001F600 ", 50), "a " + strings.Repeat("b", 100) + " c " + strings.Repeat("d", 100),
		strings.Repeat("the quick brown fox ", 10) + "\n" + strings.Repeat("jumps over ", 10),
		strings.Repeat("'a' ", 40), strings.Repeat("\\\" ", 40), strings.Repeat("x ", 39) + " " + strings.Repeat("y ", 40),
		"only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
	} {
		str(s)
		in = append(in, mustJSON([]interface{}{[]interface{}{s}, map[string]interface{}{"deep": map[string]interface{}{"deeper": []interface{}{s}}}}))
	}
	// Numbers as JSON writes them, and beyond.
	in = append(in,
		`[0,-0,1,-1,0.0,-0.0,1.0,1.5,-1.5,1e3,1E3,1e+3,1e-3,1e21,1e20,100000,1000000,1000000.0,123456.7,1234567.5,0.0001,0.00001,5e-324,1.7976931348623157e308,1e308,1e309,-1e400,2.5e-5]`,
		`[9007199254740993,9223372036854775807,9223372036854775808,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,123456789012345678901234567890,0.1,0.2,0.30000000000000004,3.141592653589793,1e-7,123e-20]`,
		`{"a":true,"b":false,"c":null,"d":[true,false,null],"e":{},"f":[],"g":[[]],"h":[{}],"i":{"j":{}},"k":[[],[[]],{}]}`,
		`[[1,2],[[3]],[{"a":[4,[5]]}],[]]`, `{}`, `[]`, `"x"`, `1`, `null`, `true`, `""`, `"a\nb"`, `"\n"`, `" "`, `[""]`, `{"":""}`,
		`{"a":{"b":{"c":{"d":[{"e":"f"}]}}}}`, `[{"a":1,"b":[1,2]},{"c":{}}]`,
		`{"a":1,"a":2}`, `{"__proto__":{"x":1},"constructor":"c","prototype":[]}`,
		`{"a\/b":1}`, `{"a":"\ud83d\ude00"}`, `{"a":"\ud800"}`, "{\"a\":\"\x7f\"}", "{\"a\":\"\u0080\"}", "{\"a\":\"\ufffe\"}",
		"{\"a\":\"x\u0085y\"}", "{\"a\":\"x  \u0085  y\"}", "{\"a\":\"x\u0085\u0085y\"}", "{\"a\":\"x\u2028y\"}", "{\"a\":\"x \u2029\u2028 y\"}",
		"{\"a\":\"x\u0085---\"}", "{\"a\":\"x\u0085--- y\"}", "{\"a\\u0085\":1}", "{\"a\u0085b\":1}", "[\"\u2028\"]",
		`{"a":"\u0000\u0001\u001f\u007f\u0085\u00a0\u2028\u2029\ufeff"}`,
		"{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}",
		"{\"a\u0085\":\"b\u0085\"}",
	)
	// Keys: quoting, order of numbers inside keys, long keys.
	keys := []string{"a", "b", "B", "A", "aa", "a1", "a2", "a10", "a01", "a001", "a0", "a00", "a9", "a09", "1", "2", "10", "01", "-1",
		"_", "-", ".", "a.b", "a-b", "a_b", "a/b", "é", "z", "Z", "日", "a b", "a10b", "a10a", "a9z", "x1y2", "x1y10", "x10y1",
		"a٣", "a3", "a٢", "", " ", "true", "null", "1.5", "a99999999999999999999", "a99999999999999999998", "a18446744073709551616",
		"a9223372036854775808", "item-0", "item-1", "item-10", "item-2", "v1", "v1beta1", "v2", "v10", "v1alpha1", "v1beta2",
	}
	// All of them in one map sort differently from run to run (keyList.Less is not transitive over this
	// set: "a9z" against the long digit runs); groups of them, and pairs, sort the same every time.
	m := map[string]interface{}{}
	for i, k := range keys {
		m[k] = i
	}
	in = append(in, mustJSON(m))
	for g := 0; g < len(keys); g += 8 {
		m := map[string]interface{}{}
		for i := g; i < g+8 && i < len(keys); i++ {
			m[keys[i]] = i
		}
		in = append(in, mustJSON(m))
	}
	for i := 0; i < len(keys); i++ {
		for j := i + 1; j < len(keys); j += 7 {
			in = append(in, mustJSON(map[string]interface{}{keys[i]: 1, keys[j]: 2}))
		}
	}
	for n := 120; n <= 135; n++ {
		in = append(in, mustJSON(map[string]interface{}{strings.Repeat("k", n): map[string]interface{}{"x": 1}, "z" + strings.Repeat("é", n/2): []interface{}{1}}))
	}
	in = append(in,
		mustJSON(map[string]interface{}{strings.Repeat("k", 1021): 1}), mustJSON(map[string]interface{}{strings.Repeat("k", 1022): 1}),
		mustJSON(map[string]interface{}{strings.Repeat("k", 1023): 1}), mustJSON(map[string]interface{}{strings.Repeat("é", 1022): 1}),
		mustJSON(map[string]interface{}{strings.Repeat("\U0001F600", 1022): 1}), mustJSON(map[string]interface{}{strings.Repeat("\U0001F600", 1023): 1}),
		mustJSON(map[string]interface{}{"a\nb": 1, "c\n": map[string]interface{}{"d": 1}, "e\n": []interface{}{1}, "\n": "x\ny", "f\tg": 1, "h\u2028": 1}),
		mustJSON(map[string]interface{}{strings.Repeat("long key ", 20): map[string]interface{}{"a": 1, "b": 2}, strings.Repeat("other key ", 20): []interface{}{1, []interface{}{2}}}),
	)
	// Deep nesting.
	// Nested lists stay on one line ("- - - []"); nested maps indent each level, so only a few hundred.
	for _, d := range []int{50, 300, 1000, 9999, 10000, 10001} {
		in = append(in, strings.Repeat("[", d)+strings.Repeat("]", d))
	}
	for _, d := range []int{50, 300, 10001} {
		in = append(in, strings.Repeat(`{"a":`, d)+"1"+strings.Repeat("}", d))
	}
	in = append(in, strings.Repeat(`[{"a":`, 100)+`"x"`+strings.Repeat("}]", 100))
	return in
}

// alphabet is rich in what go-yaml treats specially.
var alphabet = []string{
	"a", "b", "z", "Y", "n", "0", "1", "9", " ", " ", " ", " ", "-", ":", "#", "?", "!", "&", "*", "|", ">", "%", "@", "`", "'", "\"",
	"\\", ",", "[", "]", "{", "}", ".", "_", "~", "+", "\n", "\n", "\t", "\r", "é", "日", "\u00a0", "\u0085", "\u2028", "\ufeff",
	"\U0001F600", "\x00", "\x1b", "yes", "null", "true", "1e3", "0x1f", "2026-11-28", "---", "...", "- ", ": ", " #",
}

// randomString draws from alphabet; a key without a raw NEL, which go-yaml reads as a line break that
// no key may hold (every such document would be an error).
func randomString(r *rand.Rand, key bool) string {
	var n int
	switch r.Intn(4) {
	case 0:
		n = r.Intn(4)
	case 1:
		n = 60 + r.Intn(60)
	default:
		n = r.Intn(30)
	}
	var b strings.Builder
	for b.Len() < n {
		if r.Intn(3) == 0 {
			c := alphabet[r.Intn(len(alphabet))]
			if key && c == "\u0085" {
				continue
			}
			b.WriteString(c)
		} else {
			b.WriteString(string(rune('a' + r.Intn(26))))
		}
	}
	return b.String()
}

func randomValue(r *rand.Rand, depth int) interface{} {
	k := r.Intn(10)
	if depth > 4 {
		k = 5 + r.Intn(5)
	}
	switch k {
	case 0, 1, 2:
		n := r.Intn(5)
		m := make(map[string]interface{}, n)
		for i := 0; i < n; i++ {
			key := randomString(r, true)
			if r.Intn(3) == 0 {
				key = fmt.Sprintf("k%d", r.Intn(200))
			}
			m[key] = randomValue(r, depth+1)
		}
		return m
	case 3, 4:
		n := r.Intn(4)
		l := make([]interface{}, n)
		for i := range l {
			l[i] = randomValue(r, depth+1)
		}
		return l
	case 5, 6, 7:
		return randomString(r, false)
	case 8:
		switch r.Intn(5) {
		case 0:
			return r.Int63() - r.Int63()
		case 1:
			return r.NormFloat64() * 1e6
		case 2:
			return json.Number(fmt.Sprintf("%de%d", r.Intn(100), r.Intn(40)-20))
		case 3:
			return json.Number(fmt.Sprintf("%d%d", r.Uint64(), r.Intn(100)))
		default:
			return r.Intn(3) - 1
		}
	default:
		switch r.Intn(3) {
		case 0:
			return true
		case 1:
			return false
		default:
			return nil
		}
	}
}

// realistic holds objects as kube-apiserver writes them: a Table, a Pod with the annotation kubectl
// apply leaves, a CustomResourceDefinition with long descriptions, a ConfigMap with a script, a Status.
func realistic() []string {
	nameDesc := "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
	table := map[string]interface{}{
		"kind": "Table", "apiVersion": "meta.k8s.io/v1",
		"metadata": map[string]interface{}{"resourceVersion": "12345"},
		"columnDefinitions": []interface{}{
			map[string]interface{}{"name": "Name", "type": "string", "format": "name", "description": nameDesc, "priority": 0},
			map[string]interface{}{"name": "Created At", "type": "date", "format": "", "description": "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", "priority": 0},
		},
		"rows": []interface{}{
			map[string]interface{}{"cells": []interface{}{"example", "2026-11-28T02:55:57Z"}, "object": map[string]interface{}{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": map[string]interface{}{"name": "example", "namespace": "default", "uid": "0b3c9f7e-1234-4cde-8f00-123456789abc", "resourceVersion": "1", "creationTimestamp": "2026-11-28T02:55:57Z"}}},
		},
	}
	podSpec := map[string]interface{}{
		"containers": []interface{}{map[string]interface{}{
			"name": "app", "image": "registry.example.com/team/app:1.2.3", "args": []interface{}{"--port=8080", "--verbose", "true", "--", "sh", "-c", "echo hello && sleep 3600"},
			"ports":     []interface{}{map[string]interface{}{"containerPort": 8080, "protocol": "TCP"}},
			"resources": map[string]interface{}{"limits": map[string]interface{}{"cpu": "500m", "memory": "128Mi"}, "requests": map[string]interface{}{"cpu": "0.1", "memory": "1e3"}},
			"env":       []interface{}{map[string]interface{}{"name": "ENABLED", "value": "yes"}, map[string]interface{}{"name": "COUNT", "value": "10"}, map[string]interface{}{"name": "EMPTY", "value": ""}},
		}},
		"nodeSelector": map[string]interface{}{"kubernetes.io/os": "linux"},
	}
	applied := mustJSON(map[string]interface{}{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]interface{}{"annotations": map[string]interface{}{}, "name": "web", "namespace": "default"}, "spec": podSpec}) + "\n"
	pod := map[string]interface{}{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]interface{}{
			"name": "web", "namespace": "default", "uid": "7d1c0a8e-2f1b-4f7a-9a55-0f6f5c1d2e3f", "resourceVersion": "4242", "generation": 1,
			"creationTimestamp": "2026-11-28T02:55:57Z", "labels": map[string]interface{}{"app": "web", "tier": "1", "canary": "false"},
			"annotations": map[string]interface{}{"kubectl.kubernetes.io/last-applied-configuration": applied, "note": "  leading spaces", "on": "on"},
			"managedFields": []interface{}{map[string]interface{}{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "v1", "time": "2026-11-28T02:55:57Z", "fieldsType": "FieldsV1",
				"fieldsV1": map[string]interface{}{"f:metadata": map[string]interface{}{"f:annotations": map[string]interface{}{".": map[string]interface{}{}, "f:kubectl.kubernetes.io/last-applied-configuration": map[string]interface{}{}}}, "f:spec": map[string]interface{}{"f:containers": map[string]interface{}{`k:{"name":"app"}`: map[string]interface{}{".": map[string]interface{}{}, "f:image": map[string]interface{}{}}}}}}},
		},
		"spec":   podSpec,
		"status": map[string]interface{}{"phase": "Pending", "qosClass": "Burstable", "conditions": []interface{}{map[string]interface{}{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.", "lastTransitionTime": "2026-11-28T02:55:58Z", "lastProbeTime": nil}}},
	}
	crd := map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]interface{}{"name": "widgets.example.com"},
		"spec": map[string]interface{}{"group": "example.com", "scope": "Namespaced",
			"names": map[string]interface{}{"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList", "shortNames": []interface{}{"wd"}},
			"versions": []interface{}{map[string]interface{}{"name": "v1", "served": true, "storage": true,
				"additionalPrinterColumns": []interface{}{map[string]interface{}{"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}},
				"schema": map[string]interface{}{"openAPIV3Schema": map[string]interface{}{"type": "object", "description": "Widget is the Schema for the widgets API. It has a fairly long description that goes well past the eighty column folding width of go-yaml's emitter, with 'quotes', \"double quotes\", colons: here, and # hashes.",
					"properties": map[string]interface{}{"spec": map[string]interface{}{"type": "object", "x-kubernetes-preserve-unknown-fields": true,
						"properties": map[string]interface{}{"replicas": map[string]interface{}{"type": "integer", "minimum": 0, "maximum": 1e3, "default": 1, "description": "Replicas is the number of desired replicas.\nDefaults to 1.\n  Indented line.\n"},
							"pattern":      map[string]interface{}{"type": "string", "pattern": `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, "enum": []interface{}{"yes", "no", "~", "1.0", "0x10"}},
							"x-validation": map[string]interface{}{"type": "object", "x-kubernetes-validations": []interface{}{map[string]interface{}{"rule": "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas || has(self.override) && self.override == true", "message": "replicas must be between minReplicas and maxReplicas unless override is set: see the documentation"}}}}}}}}}},
		},
	}
	cm := map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]interface{}{"name": "scripts", "namespace": "default"},
		"data":       map[string]interface{}{"run.sh": "#!/bin/sh\nset -e\necho \"starting\"\n\n  exec /app --flag\n", "config.yaml": "key: value\nlist:\n- a\n- b", "trailing": "x \ny", "crlf": "a\r\nb\r\n", "tab": "a:\tb", "10": "ten", "9": "nine"},
		"binaryData": map[string]interface{}{"blob": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk8="}}
	status := map[string]interface{}{"kind": "Status", "apiVersion": "v1", "metadata": map[string]interface{}{}, "status": "Failure",
		"message": "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch", "reason": "NotAcceptable", "code": 406}
	list := map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMapList", "metadata": map[string]interface{}{"resourceVersion": "99"}, "items": []interface{}{cm, cm}}
	return []string{mustJSON(table), mustJSON(pod), mustJSON(crd), mustJSON(cm), mustJSON(status), mustJSON(list)}
}
