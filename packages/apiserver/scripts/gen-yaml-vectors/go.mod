module kubekit.dev/apiserver/gen-yaml-vectors

go 1.24.0

require sigs.k8s.io/yaml v1.6.0

require go.yaml.in/yaml/v2 v2.4.2 // indirect
