// Command schemekinds prints, as JSON, the kinds kube-apiserver's scheme (legacyscheme, with every API
// group pkg/controlplane installs) registers in each external group version, each with the Go type a body
// of that kind is decoded into and the internal types it can be converted to, and the kinds registered
// for every version (unversioned). kubekit's embedded server reads it (packages/apiserver/fixtures/
// scheme-kinds.json) to answer a body of another kind as the apiserver's codec does: "converting (X) to
// (Y): unknown conversion" for a kind the scheme knows, "no kind ... is registered" for one it does not.
//
// Usage (from packages/envtest/go): go run ./schemekinds > ../../apiserver/fixtures/scheme-kinds.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/controlplane"
)

// kind is one registered kind of a group version: the Go type its body decodes into, and the internal
// types a conversion is registered to (none for a kind that is only ever decoded, such as the options).
type kind struct {
	Type     string   `json:"type"`
	Internal []string `json:"internal,omitempty"`
}

type output struct {
	Source string `json:"source"`
	// Unversioned kinds are found by name in any group version (runtime.Scheme.New).
	Unversioned map[string]string `json:"unversioned"`
	// EveryVersion holds the kinds every external group version registers alike (WatchEvent, the options).
	EveryVersion map[string]kind `json:"everyVersion"`
	// GroupVersions holds the others, by apiVersion ("v1", "apps/v1").
	GroupVersions map[string]map[string]kind `json:"groupVersions"`
}

// typeName is a Go type as a conversion error names it: its package's last element and its name (v1.Pod).
func typeName(t reflect.Type) string { return t.String() }

// converts says whether scheme.Convert finds a conversion from an empty `in` to an empty `out`.
func converts(s *runtime.Scheme, in, out reflect.Type) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	err := s.Convert(reflect.New(in).Interface(), reflect.New(out).Interface(), nil)
	return err == nil || !strings.Contains(err.Error(), "unknown conversion")
}

func main() {
	s := legacyscheme.Scheme
	internalByKind := map[string][]reflect.Type{}
	external := map[schema.GroupVersionKind]reflect.Type{}
	for gvk, t := range s.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			internalByKind[gvk.Kind] = append(internalByKind[gvk.Kind], t)
		} else {
			external[gvk] = t
		}
	}
	out := output{
		Source:        "kube-apiserver v1.34.4 legacyscheme with pkg/controlplane's API groups (packages/envtest/go/schemekinds)",
		Unversioned:   map[string]string{},
		EveryVersion:  map[string]kind{},
		GroupVersions: map[string]map[string]kind{},
	}
	for gvk, t := range external {
		k := kind{Type: typeName(t)}
		seen := map[string]bool{}
		for _, it := range internalByKind[gvk.Kind] {
			if name := typeName(it); !seen[name] && converts(s, t, it) {
				seen[name] = true
				k.Internal = append(k.Internal, name)
			}
		}
		sort.Strings(k.Internal)
		gv := gvk.GroupVersion().String()
		if out.GroupVersions[gv] == nil {
			out.GroupVersions[gv] = map[string]kind{}
		}
		out.GroupVersions[gv][gvk.Kind] = k
	}
	// Unversioned kinds: those runtime.Scheme.New finds by name alone.
	for _, name := range []string{"Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList"} {
		obj, err := s.New(schema.GroupVersionKind{Group: "kubekit.invalid", Version: "v0", Kind: name})
		if err == nil {
			out.Unversioned[name] = typeName(reflect.TypeOf(obj).Elem())
		}
	}
	// The kinds every group version registers the same way move to EveryVersion.
	var first map[string]kind
	for _, kinds := range out.GroupVersions {
		first = kinds
		break
	}
	for name, k := range first {
		everywhere := true
		for _, kinds := range out.GroupVersions {
			if other, ok := kinds[name]; !ok || !reflect.DeepEqual(other, k) {
				everywhere = false
				break
			}
		}
		if everywhere {
			out.EveryVersion[name] = k
		}
	}
	for _, kinds := range out.GroupVersions {
		for name := range out.EveryVersion {
			delete(kinds, name)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
