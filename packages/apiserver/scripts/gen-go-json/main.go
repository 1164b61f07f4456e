// Command gen-go-json writes the Go JSON encoding facts of the built-in kinds the embedded server
// serves: for every struct type reachable from them, each field's JSON name, whether its tag says
// omitempty or omitzero, and its Go type's shape. These are facts of k8s.io/api's types (how
// encoding/json writes them), read by reflection; the embedded server uses them to store and answer
// built-in objects as kube-apiserver does (empty optional fields dropped).
//
// Usage (from this directory): go run . ../../fixtures/builtin-openapi.json > ../../fixtures/builtin-go-json.json
//
// With -quantities, it reads a JSON array of JSON texts from stdin and writes, for each, what
// encoding/json writes for a resource.Quantity decoded from it (null where decoding fails): test
// vectors for the embedded server's canonical quantities (test/fixtures/quantity-canonical.json).
//
// With -arithmetic, it reads a JSON array of pairs of quantity texts from stdin and writes, for each pair
// read back as from storage (decoded, encoded, decoded again), what the quota and limit admission plugins
// compute from them: the sum's and difference's text (String, with Add's and Sub's rule for the format)
// and Value and MilliValue of the first and of the sum (test/fixtures/quantity-arithmetic.json).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Shape is a Go type as encoding/json sees it.
type Shape struct {
	// K is the kind: string, int, float, bool, bytes, map, slice, ptr, struct, custom, any.
	K string `json:"k"`
	// E is the element of a map, slice or pointer.
	E *Shape `json:"e,omitempty"`
	// N names a struct (its OpenAPI component name) or a type with its own MarshalJSON.
	N string `json:"n,omitempty"`
	// G is the Go type as encoding/json names it in an UnmarshalTypeError (`[]v1.Container`, `types.UID`).
	G string `json:"g"`
	// B is the size in bits of an integer (U: unsigned).
	B int  `json:"b,omitempty"`
	U bool `json:"u,omitempty"`
}

// Field is one JSON member of a struct.
type Field struct {
	Omit     bool   `json:"omitempty,omitempty"`
	OmitZero bool   `json:"omitzero,omitempty"`
	Type     *Shape `json:"type"`
}

var (
	marshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	structs   = map[string]map[string]Field{}
	// order lists each struct's JSON members in declaration order (inline members where they are
	// embedded), the order runtime.DefaultUnstructuredConverter walks them in.
	order = map[string][]string{}
)

// componentName is the OpenAPI component name of a named Go type: k8s.io/api/core/v1.PodSpec is io.k8s.api.core.v1.PodSpec.
func componentName(t reflect.Type) string {
	parts := strings.Split(t.PkgPath(), "/")
	domain := strings.Split(parts[0], ".")
	for i, j := 0, len(domain)-1; i < j; i, j = i+1, j-1 {
		domain[i], domain[j] = domain[j], domain[i]
	}
	return strings.Join(append(domain, parts[1:]...), ".") + "." + t.Name()
}

func shapeOf(t reflect.Type) *Shape {
	shape := kindOf(t)
	shape.G = t.String()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		shape.B = t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		shape.B, shape.U = t.Bits(), true
	}
	return shape
}

func kindOf(t reflect.Type) *Shape {
	if t.Kind() != reflect.Pointer && (t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler)) {
		return &Shape{K: "custom", N: componentName(t)}
	}
	switch t.Kind() {
	case reflect.String:
		return &Shape{K: "string"}
	case reflect.Bool:
		return &Shape{K: "bool"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &Shape{K: "int"}
	case reflect.Float32, reflect.Float64:
		return &Shape{K: "float"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return &Shape{K: "bytes"}
		}
		return &Shape{K: "slice", E: shapeOf(t.Elem())}
	case reflect.Map:
		return &Shape{K: "map", E: shapeOf(t.Elem())}
	case reflect.Pointer:
		return &Shape{K: "ptr", E: shapeOf(t.Elem())}
	case reflect.Struct:
		name := componentName(t)
		if _, seen := structs[name]; !seen {
			structs[name] = map[string]Field{}
			order[name] = addFields(structs[name], t, nil)
		}
		return &Shape{K: "struct", N: name}
	case reflect.Interface:
		return &Shape{K: "any"}
	}
	panic(fmt.Sprintf("unexpected type %s", t))
}

func addFields(fields map[string]Field, t reflect.Type, names []string) []string {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			// Embedded and inline: its members are the struct's own.
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			names = addFields(fields, ft, names)
			continue
		}
		if name == "" {
			name = f.Name
		}
		field := Field{Type: shapeOf(f.Type)}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				field.Omit = true
			case "omitzero":
				field.OmitZero = true
			}
		}
		fields[name] = field
		names = append(names, name)
	}
	return names
}

// quantities writes the canonical form of each quantity text read from stdin.
func quantities() {
	var inputs []string
	if err := json.NewDecoder(os.Stdin).Decode(&inputs); err != nil {
		panic(err)
	}
	out := [][2]any{}
	for _, in := range inputs {
		var q resource.Quantity
		if err := json.Unmarshal([]byte(in), &q); err != nil {
			out = append(out, [2]any{in, nil})
			continue
		}
		text, err := json.Marshal(q)
		if err != nil {
			panic(err)
		}
		out = append(out, [2]any{in, string(text)})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}

// stored decodes a quantity text as the apiserver decodes it, then reads back what it writes.
func stored(text string) resource.Quantity {
	var q resource.Quantity
	if err := json.Unmarshal([]byte(text), &q); err != nil {
		panic(err)
	}
	written, err := json.Marshal(q)
	if err != nil {
		panic(err)
	}
	var back resource.Quantity
	if err := json.Unmarshal(written, &back); err != nil {
		panic(err)
	}
	return back
}

// arithmetic writes, for each pair of quantity texts read from stdin, their sum, difference and values.
func arithmetic() {
	var pairs [][2]string
	if err := json.NewDecoder(os.Stdin).Decode(&pairs); err != nil {
		panic(err)
	}
	out := [][8]string{}
	for _, p := range pairs {
		a, b := stored(p[0]), stored(p[1])
		sum, diff := a.DeepCopy(), a.DeepCopy()
		sum.Add(b)
		diff.Sub(b)
		// int64s as text: JSON numbers beyond 2^53 would not survive JavaScript.
		out = append(out, [8]string{a.String(), b.String(), sum.String(), diff.String(), fmt.Sprint(a.Value()), fmt.Sprint(a.MilliValue()), fmt.Sprint(sum.Value()), fmt.Sprint(sum.MilliValue())})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-quantities" {
		quantities()
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "-arithmetic" {
		arithmetic()
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen-go-json <builtin-openapi.json>")
		os.Exit(2)
	}
	text, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var fixture struct {
		Kinds map[string]string `json:"kinds"`
	}
	if err := json.Unmarshal(text, &fixture); err != nil {
		panic(err)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, authenticationv1.AddToScheme, authorizationv1.AddToScheme, autoscalingv1.AddToScheme, autoscalingv2.AddToScheme, batchv1.AddToScheme, coordinationv1.AddToScheme, discoveryv1.AddToScheme, eventsv1.AddToScheme, policyv1.AddToScheme, networkingv1.AddToScheme, schedulingv1.AddToScheme, nodev1.AddToScheme, certificatesv1.AddToScheme, storagev1.AddToScheme, resourcev1.AddToScheme, flowcontrolv1.AddToScheme, rbacv1.AddToScheme, admissionregistrationv1.AddToScheme, apiextensionsv1.AddToScheme, apiregistrationv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	kinds := map[string]string{}
	// The CustomResourceDefinition kind is served apart from the fixture's (its schemas are kubekit's own).
	fixture.Kinds["apiextensions.k8s.io/v1/CustomResourceDefinition"] = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"
	// The Scale of the scale subresources is served apart from the fixture's kinds too.
	fixture.Kinds["autoscaling/v1/Scale"] = "io.k8s.api.autoscaling.v1.Scale"
	// The Eviction a Pod's eviction subresource takes is served apart too.
	fixture.Kinds["policy/v1/Eviction"] = "io.k8s.api.policy.v1.Eviction"
	// And the TokenRequest a ServiceAccount's token subresource takes.
	fixture.Kinds["authentication.k8s.io/v1/TokenRequest"] = "io.k8s.api.authentication.v1.TokenRequest"
	keys := make([]string, 0, len(fixture.Kinds))
	for k := range fixture.Kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		parts := strings.Split(key, "/")
		gvk := schema.GroupVersionKind{Group: parts[0], Version: parts[1], Kind: parts[2]}
		obj, err := scheme.New(gvk)
		if err != nil {
			panic(err)
		}
		shape := shapeOf(reflect.TypeOf(obj).Elem())
		if shape.N != fixture.Kinds[key] {
			panic(fmt.Sprintf("%s: Go type %s, OpenAPI component %s", key, shape.N, fixture.Kinds[key]))
		}
		kinds[key] = shape.N
	}
	// The autoscaling/v1 types a HorizontalPodAutoscaler's round-trip annotations hold (no kind reaches them):
	// the apiserver writes and reads those annotations with encoding/json.
	for _, t := range []any{autoscalingv1.MetricSpec{}, autoscalingv1.MetricStatus{}, autoscalingv1.HorizontalPodAutoscalerCondition{}} {
		shapeOf(reflect.TypeOf(t))
	}
	out := map[string]any{"source": "k8s.io/api v0.34.4, k8s.io/apimachinery v0.34.4 (encoding/json tags, by reflection)", "kinds": kinds, "structs": structs, "order": order}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
