package pgtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// makeCerts writes a test CA (ca.crt) and a server certificate for
// 127.0.0.1 signed by it (server.crt, server.key: the key readable by the
// server's user only, as PostgreSQL requires), and sets the server's TLS
// options.
func (s *Server) makeCerts() error {
	ca, caKey, caDER, err := newCA()
	if err != nil {
		return err
	}
	now := time.Now()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	files := []struct {
		name, typ string
		der       []byte
	}{{"ca.crt", "CERTIFICATE", caDER}, {"server.crt", "CERTIFICATE", der}, {"server.key", "EC PRIVATE KEY", keyDER}}
	for _, f := range files {
		path := filepath.Join(s.dir, f.name)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der}), 0o600); err != nil {
			return err
		}
		if s.cred != nil {
			if err := os.Chown(path, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
				return err
			}
		}
	}
	s.caFile = filepath.Join(s.dir, "ca.crt")
	s.tls = []string{"-c", "ssl=on", "-c", "ssl_cert_file=" + filepath.Join(s.dir, "server.crt"),
		"-c", "ssl_key_file=" + filepath.Join(s.dir, "server.key")}
	return nil
}

// newCA makes a self-signed test CA.
func newCA() (*x509.Certificate, *ecdsa.PrivateKey, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "pgtest CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, nil, err
	}
	ca, err := x509.ParseCertificate(der)
	return ca, key, der, err
}

// OtherCAFile writes, into dir, the PEM file of a CA that signed nothing
// (to test that a client refuses a server it cannot verify) and returns
// its path.
func OtherCAFile(dir string) (string, error) {
	_, _, der, err := newCA()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "other-ca.crt")
	return path, os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}
