module kubekit.dev/core/gen-go-time

go 1.24.0
