// Command refserver runs the real kube-apiserver, built from the official k8s.io/kubernetes Go modules,
// with an embedded etcd in the same process, on 127.0.0.1 only. It is kubekit's reference server
// (@kubekit/envtest): tests start it, read one ready line from stdout, and stop it by closing stdin.
//
// Everything it needs is generated at start: a CA and a serving certificate for 127.0.0.1, a
// service-account key pair, a random admin bearer token (user "admin" in system:masters) and a
// kubeconfig. Once /readyz answers "ok" it prints one line to stdout:
//
//	KUBEKIT_REFERENCE_READY {"url":"https://127.0.0.1:PORT","kubeconfig":"...","token":"...",...}
//
// It exits when stdin closes (so a parent that dies takes it along), on SIGINT/SIGTERM, or when the
// apiserver fails. Flags after "--" go to kube-apiserver unchanged.
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

const readyPrefix = "KUBEKIT_REFERENCE_READY "

type readyLine struct {
	URL        string `json:"url"`
	Kubeconfig string `json:"kubeconfig"`
	Token      string `json:"token"`
	CAFile     string `json:"caFile"`
	DataDir    string `json:"dataDir"`
	EtcdURL    string `json:"etcdUrl"`
	Pid        int    `json:"pid"`
}

func main() {
	os.Exit(run())
}

func run() int {
	// When the parent dies, its end of our stdout/stderr pipes goes too; Go would then die of SIGPIPE at
	// the next log line, before removing the temp dir. Ignored, the writes just fail.
	signal.Ignore(syscall.SIGPIPE)
	fs := flag.NewFlagSet("refserver", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "", "directory for etcd data, certificates and the kubeconfig (default: a new temp dir, removed on exit)")
	port := fs.Int("port", 0, "secure port on 127.0.0.1 (0: a free one)")
	featureGates := fs.String("feature-gates", "", "passed to kube-apiserver --feature-gates")
	emulatedVersion := fs.String("emulated-version", "", "passed to kube-apiserver --emulated-version (e.g. 1.31)")
	authz := fs.String("authorization-mode", "RBAC", "passed to kube-apiserver --authorization-mode")
	stdinExit := fs.Bool("exit-on-stdin-close", true, "exit when stdin reaches EOF")
	verbosity := fs.String("v", "0", "kube-apiserver log verbosity")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	extra := fs.Args()

	dir := *dataDir
	removeDir := false
	if dir == "" {
		d, err := os.MkdirTemp("", "kubekit-refserver-")
		if err != nil {
			return fail("creating temp dir: %v", err)
		}
		dir, removeDir = d, true
	}
	if removeDir {
		defer os.RemoveAll(dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail("creating data dir: %v", err)
	}

	etcdClient, err := freePort()
	if err != nil {
		return fail("%v", err)
	}
	etcdPeer, err := freePort()
	if err != nil {
		return fail("%v", err)
	}
	securePort := *port
	if securePort == 0 {
		if securePort, err = freePort(); err != nil {
			return fail("%v", err)
		}
	}

	etcd, err := startEtcd(filepath.Join(dir, "etcd"), etcdClient, etcdPeer)
	if err != nil {
		return fail("starting etcd: %v", err)
	}
	defer etcd.Close()

	pki := filepath.Join(dir, "pki")
	if err := os.MkdirAll(pki, 0o700); err != nil {
		return fail("%v", err)
	}
	// A data directory that already holds credentials (a restart) keeps them: the CA, the serving
	// certificate, the service-account key and the admin token stay valid for the clients that have
	// them, as a restarted control plane's do. Otherwise they are made now.
	if !allExist(pki, "ca.crt", "apiserver.crt", "apiserver.key") {
		if err := writeServingCerts(pki); err != nil {
			return fail("generating certificates: %v", err)
		}
	}
	if !allExist(pki, "sa.key", "sa.pub") {
		if err := writeServiceAccountKey(pki); err != nil {
			return fail("generating service-account key: %v", err)
		}
	}
	tokenFile := filepath.Join(pki, "tokens.csv")
	token, err := readToken(tokenFile)
	if err != nil {
		return fail("%v", err)
	}
	if token == "" {
		if token, err = randomToken(); err != nil {
			return fail("%v", err)
		}
		if err := os.WriteFile(tokenFile, []byte(token+",admin,admin,system:masters\n"), 0o600); err != nil {
			return fail("%v", err)
		}
	}

	serverURL := "https://127.0.0.1:" + strconv.Itoa(securePort)
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := writeKubeconfig(kubeconfig, serverURL, filepath.Join(pki, "ca.crt"), token); err != nil {
		return fail("writing kubeconfig: %v", err)
	}

	args := []string{
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(securePort),
		"--etcd-servers=http://127.0.0.1:" + strconv.Itoa(etcdClient),
		"--cert-dir=" + pki,
		"--tls-cert-file=" + filepath.Join(pki, "apiserver.crt"),
		"--tls-private-key-file=" + filepath.Join(pki, "apiserver.key"),
		"--service-account-key-file=" + filepath.Join(pki, "sa.pub"),
		"--service-account-signing-key-file=" + filepath.Join(pki, "sa.key"),
		"--service-account-issuer=" + serverURL,
		"--token-auth-file=" + tokenFile,
		"--authorization-mode=" + *authz,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--allow-privileged=true",
		"--disable-admission-plugins=ServiceAccount",
		"--endpoint-reconciler-type=none",
		"--profiling=false",
		"--v=" + *verbosity,
	}
	if *featureGates != "" {
		args = append(args, "--feature-gates="+*featureGates)
	}
	if *emulatedVersion != "" {
		args = append(args, "--emulated-version="+*emulatedVersion)
	}
	args = append(args, extra...)

	// kube-apiserver's command stops on SIGINT/SIGTERM (its own signal context); closing stdin
	// sends that signal to this process, so the same graceful path runs.
	if *stdinExit {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
			time.Sleep(15 * time.Second)
			fmt.Fprintln(os.Stderr, "refserver: kube-apiserver did not stop within 15s of stdin closing; exiting")
			etcd.Close()
			if removeDir {
				os.RemoveAll(dir)
			}
			os.Exit(1)
		}()
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	go func() {
		if err := waitReady(ctx, serverURL, filepath.Join(pki, "ca.crt"), token); err != nil {
			fmt.Fprintf(os.Stderr, "refserver: %v\n", err)
			return
		}
		line, _ := json.Marshal(readyLine{
			URL: serverURL, Kubeconfig: kubeconfig, Token: token, CAFile: filepath.Join(pki, "ca.crt"),
			DataDir: dir, EtcdURL: "http://127.0.0.1:" + strconv.Itoa(etcdClient), Pid: os.Getpid(),
		})
		fmt.Fprintf(os.Stdout, "%s%s\n", readyPrefix, line)
	}()

	cmd := app.NewAPIServerCommand()
	cmd.SetArgs(args)
	return cli.Run(cmd)
}

func fail(format string, a ...any) int {
	fmt.Fprintf(os.Stderr, "refserver: "+format+"\n", a...)
	return 1
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port on 127.0.0.1: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startEtcd(dir string, clientPort, peerPort int) (*embed.Etcd, error) {
	cfg := embed.NewConfig()
	cfg.Name = "refserver"
	cfg.Dir = dir
	cfg.LogLevel = "error"
	cfg.LogOutputs = []string{"stderr"}
	cfg.UnsafeNoFsync = true
	client := url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(clientPort)}
	peer := url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(peerPort)}
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, err
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, nil
	case err := <-e.Err():
		e.Close()
		return nil, err
	case <-time.After(60 * time.Second):
		e.Close()
		return nil, errors.New("etcd was not ready within 60s")
	}
}

func writeServingCerts(dir string) error {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "kubekit-refserver-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, "ca.crt"), "CERTIFICATE", caDER); err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, "apiserver.crt"), "CERTIFICATE", der); err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, "apiserver.key"), "EC PRIVATE KEY", keyDER)
}

func writeServiceAccountKey(dir string) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, "sa.key"), "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key)); err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, "sa.pub"), "PUBLIC KEY", pub)
}

func writePEM(path, kind string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600)
}

// allExist reports whether every one of names is a file in dir.
func allExist(dir string, names ...string) bool {
	for _, name := range names {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || !info.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// readToken returns the admin token of a tokens.csv written by an earlier start, or "" when there is
// none (the file is absent, or its first line has no token).
func readToken(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	token, _, _ := strings.Cut(first, ",")
	return strings.TrimSpace(token), nil
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generating a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func writeKubeconfig(path, server, caFile, token string) error {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	// JSON is YAML: no YAML library needed for this fixed shape.
	cfg := map[string]any{
		"apiVersion": "v1",
		"kind":       "Config",
		"clusters": []any{map[string]any{"name": "kubekit-reference", "cluster": map[string]any{
			"server": server, "certificate-authority-data": ca,
		}}},
		"users": []any{map[string]any{"name": "admin", "user": map[string]any{"token": token}}},
		"contexts": []any{map[string]any{"name": "kubekit-reference", "context": map[string]any{
			"cluster": "kubekit-reference", "user": "admin", "namespace": "default",
		}}},
		"current-context": "kubekit-reference",
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o600)
}

func waitReady(ctx context.Context, server, caFile, token string) error {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}
	last := ""
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, server+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.TrimSpace(string(body)) == "ok" {
				return nil
			}
			last = fmt.Sprintf("status %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kube-apiserver not ready at %s/readyz: %s", server, last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
