package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue returns a PEM certificate and key signed by the CA: a server
// certificate for 127.0.0.1, or a client certificate.
func (ca *testCA) issue(t *testing.T, name string, server bool) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}

func writeFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// tlsClient dials r over TLS trusting ca, presenting cert (PEM) when
// given, and returns the error of one search.
func tlsSearch(t *testing.T, r *running, ca *testCA, certPEM, keyPEM []byte) error {
	t.Helper()
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.pem)
	tc := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	if certPEM != nil {
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			t.Fatal(err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	c := r.dial(t, toolsearch.WithTransportCredentials(credentials.NewTLS(tc)))
	_, err := c.Search(testenv.Context(t), "send slack message")
	return err
}

// tlsJSONSearch is tlsSearch over JSON (the Connect protocol) on the same
// port, with a client that offers HTTP/2 and HTTP/1.1 as curl does; it
// returns the HTTP status, or the error of the request.
func tlsJSONSearch(t *testing.T, r *running, ca *testCA, certPEM, keyPEM []byte) (int, error) {
	t.Helper()
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.pem)
	tc := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	if certPEM != nil {
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			t.Fatal(err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: tc, ForceAttemptHTTP2: true}, Timeout: 5 * time.Second}
	defer hc.CloseIdleConnections()
	resp, err := hc.Post("https://"+r.addr+"/toolsearch.v1.ToolSearchService/Search", "application/json", strings.NewReader(`{"query":"send slack message"}`))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK && !strings.Contains(string(body), `"tool_name":"slack__send_message"`) {
		t.Errorf("JSON search over TLS answered %s, want slack__send_message", body)
	}
	return resp.StatusCode, nil
}

func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newCA(t, "toolsearch test CA")
	srvCert, srvKey := ca.issue(t, "toolsearch", true)
	certFile, keyFile := writeFile(t, dir, "server.pem", srvCert), writeFile(t, dir, "server-key.pem", srvKey)
	r := launch(t, "--tls-cert", certFile, "--tls-key", keyFile)

	if err := tlsSearch(t, r, ca, nil, nil); err != nil {
		t.Errorf("search over TLS: %v", err)
	}
	if code, err := tlsJSONSearch(t, r, ca, nil, nil); code != http.StatusOK {
		t.Errorf("JSON search over TLS on the same port: status %d, %v; want 200", code, err)
	}
	other := newCA(t, "another CA")
	if err := tlsSearch(t, r, other, nil, nil); status.Code(err) != codes.Unavailable {
		t.Errorf("client trusting another CA: %v, want Unavailable (handshake refused)", err)
	}
	plain := r.dial(t)
	if _, err := plain.Search(testenv.Context(t), "send slack message"); status.Code(err) != codes.Unavailable {
		t.Errorf("plaintext client of a TLS sidecar: %v, want Unavailable", err)
	}
}

func TestMutualTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newCA(t, "toolsearch test CA")
	srvCert, srvKey := ca.issue(t, "toolsearch", true)
	r := launch(t,
		"--tls-cert", writeFile(t, dir, "server.pem", srvCert),
		"--tls-key", writeFile(t, dir, "server-key.pem", srvKey),
		"--tls-client-ca", writeFile(t, dir, "ca.pem", ca.pem))

	cliCert, cliKey := ca.issue(t, "agent", false)
	if err := tlsSearch(t, r, ca, cliCert, cliKey); err != nil {
		t.Errorf("client with a certificate of the CA: %v", err)
	}
	if code, err := tlsJSONSearch(t, r, ca, cliCert, cliKey); code != http.StatusOK {
		t.Errorf("JSON client with a certificate of the CA: status %d, %v; want 200", code, err)
	}
	if _, err := tlsJSONSearch(t, r, ca, nil, nil); err == nil {
		t.Error("JSON client without a certificate: answered, want the handshake refused")
	}
	if err := tlsSearch(t, r, ca, nil, nil); status.Code(err) != codes.Unavailable {
		t.Errorf("client without a certificate: %v, want Unavailable (handshake refused)", err)
	}
	other := newCA(t, "another CA")
	strangerCert, strangerKey := other.issue(t, "stranger", false)
	if err := tlsSearch(t, r, ca, strangerCert, strangerKey); status.Code(err) != codes.Unavailable {
		t.Errorf("client with a certificate of another CA: %v, want Unavailable", err)
	}
}

func TestTLSStartupErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.pem", []byte("not a certificate"))
	empty := writeFile(t, dir, "empty-token", []byte("\n"))
	fifo := filepath.Join(dir, "cert.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"bad certificate":  {"--tls-cert", bad, "--tls-key", bad},
		"FIFO certificate": {"--tls-cert", fifo, "--tls-key", bad},
		"FIFO key":         {"--tls-cert", bad, "--tls-key", fifo},
		"bad client CA":    {"--tls-cert", bad, "--tls-key", bad, "--tls-client-ca", bad},
		"empty token":      {"--auth-token-file", empty},
		"missing token":    {"--auth-token-file", filepath.Join(dir, "nope")},
	} {
		t.Run(name, func(t *testing.T) {
			var stderr logbuf.Buffer
			code := run(context.Background(), append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", ""}, args...), env(nil), &stderr, hooks{})
			if code != 1 {
				t.Errorf("exit %d, want 1; stderr %s", code, stderr.String())
			}
			if strings.HasPrefix(name, "FIFO") && !strings.Contains(stderr.String(), "(FIFO)") {
				t.Errorf("stderr %s: want the FIFO refused by name", stderr.String())
			}
		})
	}
}
