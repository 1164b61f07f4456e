module kubekit.dev/cel/scripts/gen-go-regex

go 1.24
