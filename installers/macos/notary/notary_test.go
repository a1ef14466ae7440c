package notary

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/notary/notarytest"
	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// fastPolls keep the tests' waits short; the bound logic is the same.
const (
	fastInterval = 10 * time.Millisecond
	fastTimeout  = 5 * time.Second
)

// testPkg writes a small flat package, signed productsign-style by a
// throwaway installer certificate unless unsigned.
func testPkg(t *testing.T, signed bool) string {
	t.Helper()
	var buf bytes.Buffer
	w := xar.NewWriter(&buf, time.Unix(1_700_000_000, 0))
	if signed {
		leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Installer())
		w.Signer = &xar.Signer{Chain: leaf.Chain(), Key: leaf.Key}
	}
	for _, m := range []struct{ name, data string }{
		{"Distribution", "<installer-gui-script minSpecVersion=\"2\"/>\n"},
		{"ctrld.pkg/Payload", strings.Repeat("payload ", 4000)},
		{"ctrld.pkg/PackageInfo", "<pkg-info/>\n"},
	} {
		if err := w.WriteHeader(&xar.Header{Name: m.name, Type: xar.TypeFile, Mode: 0o644, Encoding: xar.EncodingZlib}); err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m.data))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ctrld-1.2.3.pkg")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func fakeConfig(t *testing.T, fake *notarytest.Server) Config {
	t.Helper()
	cfg, err := FromEnv(fake.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Interval, cfg.Timeout = fastInterval, fastTimeout
	return cfg
}

// noSecrets fails if any output holds a secret in play or a run of its
// characters.
func noSecrets(t *testing.T, fake *notarytest.Server, outputs ...string) {
	t.Helper()
	all := strings.Join(outputs, "\n")
	for _, s := range append(fake.Secrets(), notarytest.AccessKeyID) {
		if testenv.HoldsPartOf([]byte(all), s) {
			t.Fatalf("output holds a secret (%.12s…):\n%s", s, all)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestNotarizeAndStaple(t *testing.T) {
	fake := notarytest.New(t)
	fake.Verdicts = []string{StatusInProgress, StatusInProgress, StatusAccepted}
	path := testPkg(t, true)
	original, _ := os.ReadFile(path)
	var out bytes.Buffer
	err := Notarize(context.Background(), fakeConfig(t, fake), path, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	if p := fake.Problems(); len(p) > 0 {
		t.Fatalf("the fake would refuse: %v", p)
	}
	if !bytes.Equal(fake.Uploaded(), original) {
		t.Fatal("the bucket did not get the package's bytes")
	}
	for _, want := range []string{"submission", "In Progress after", "Accepted after"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, &out)
		}
	}
	if fake.Polls() != 3 {
		t.Errorf("%d status requests, want 3", fake.Polls())
	}

	if err := Staple(context.Background(), fakeConfig(t, fake), path, &out); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	stapled, _ := os.ReadFile(path)
	sum := sha1.Sum(mustTOC(t, original))
	wantName := "2/1/" + hex.EncodeToString(sum[:])
	if l := fake.Lookups(); len(l) != 1 || l[0] != wantName {
		t.Fatalf("looked up %v, want %s", l, wantName)
	}
	if !bytes.HasPrefix(stapled, original) {
		t.Fatal("stapling changed the package's own bytes")
	}
	info, err := Check(stapled)
	if err != nil || !bytes.Equal(info.Ticket, fake.Ticket()) || info.RecordName != wantName || info.Members != 3 {
		t.Fatalf("Check: %+v, %v", info, err)
	}
	// Stapling again replaces the ticket rather than piling one up.
	if err := Staple(context.Background(), fakeConfig(t, fake), path, &out); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(path)
	if !bytes.Equal(again, stapled) || !strings.Contains(out.String(), "replaced") {
		t.Fatalf("a second staple gave %d bytes, the first %d", len(again), len(stapled))
	}
	noSecrets(t, fake, out.String())
}

// mustTOC is the compressed TOC, cut out by the header's lengths: the
// bytes whose SHA-1 the package stores and Apple files the ticket under.
func mustTOC(t *testing.T, pkg []byte) []byte {
	t.Helper()
	n := int(pkg[8])<<56 | int(pkg[9])<<48 | int(pkg[10])<<40 | int(pkg[11])<<32 | int(pkg[12])<<24 | int(pkg[13])<<16 | int(pkg[14])<<8 | int(pkg[15])
	return pkg[28 : 28+n]
}

func TestRejectionPrintsApplesLog(t *testing.T) {
	for _, verdict := range []string{StatusInvalid, StatusRejected} {
		t.Run(verdict, func(t *testing.T) {
			fake := notarytest.New(t)
			fake.Verdicts = []string{StatusInProgress, verdict}
			fake.Log = `{"status": "Invalid", "statusSummary": "Archive contains critical validation errors", "issues": [{"severity": "error", "path": "ctrld-1.2.3.pkg/ctrld.pkg Contents/Payload/usr/local/bin/ctrld-install", "message": "The binary is not signed.", "architecture": "x86_64"}]}`
			var out bytes.Buffer
			err := Notarize(context.Background(), fakeConfig(t, fake), testPkg(t, true), &out)
			if err == nil || !strings.Contains(err.Error(), verdict) {
				t.Fatalf("err = %v", err)
			}
			for _, want := range []string{"The binary is not signed.", "x86_64", "Apple's log for submission"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, &out)
				}
			}
			noSecrets(t, fake, out.String(), err.Error())
		})
	}
}

func TestWaitIsBounded(t *testing.T) {
	fake := notarytest.New(t)
	fake.Verdicts = []string{StatusInProgress}
	cfg := fakeConfig(t, fake)
	cfg.Interval, cfg.Timeout = 20*time.Millisecond, 200*time.Millisecond
	var out bytes.Buffer
	start := time.Now()
	err := Notarize(context.Background(), cfg, testPkg(t, true), &out)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "no verdict") {
		t.Fatalf("err = %v", err)
	}
	if took > 3*time.Second {
		t.Fatalf("the wait took %s with a bound of %s", took, cfg.Timeout)
	}
	if n := fake.Polls(); n < 3 || n > 11 {
		t.Fatalf("%d status requests in a %s bound every %s", n, cfg.Timeout, cfg.Interval)
	}
}

func TestEndpointsRefusePlainHTTPOffLoopback(t *testing.T) {
	for _, env := range []string{NotaryURLEnv, S3URLEnv, TicketURLEnv} {
		for raw, ok := range map[string]bool{
			"http://127.0.0.1:8080/x": true, "http://localhost:1/x": true, "http://[::1]:2/x": true,
			"https://proxy.example.com/x": true, "http://proxy.example.com/x": false, "http://10.0.0.1/x": false,
			"ftp://127.0.0.1/x": false, "https://user:pw@example.com/x": false, "not a url": false,
		} {
			_, err := FromEnv(func(name string) string {
				if name == env {
					return raw
				}
				return ""
			})
			if (err == nil) != ok {
				t.Errorf("%s=%s: err = %v, want accepted=%v", env, raw, err, ok)
			}
			if err != nil && !strings.Contains(err.Error(), env) {
				t.Errorf("the error does not name %s: %v", env, err)
			}
		}
	}
	cfg, err := FromEnv(func(string) string { return "" })
	if err != nil || cfg.NotaryURL != DefaultNotaryURL || cfg.S3URL != DefaultS3URL || cfg.TicketURL != DefaultTicketURL {
		t.Fatalf("defaults: %+v, %v", cfg, err)
	}
}

// S3's SignatureDoesNotMatch echoes the canonical request, session
// token included; none of it may reach the output or the error.
func TestCanarySecretsNeverPrinted(t *testing.T) {
	fake := notarytest.New(t)
	fake.RejectUpload = true
	var out bytes.Buffer
	err := Notarize(context.Background(), fakeConfig(t, fake), testPkg(t, true), &out)
	if err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch") {
		t.Fatalf("err = %v", err)
	}
	noSecrets(t, fake, out.String(), err.Error())
}

func TestUnsignedPackageIsNotSubmitted(t *testing.T) {
	fake := notarytest.New(t)
	var out bytes.Buffer
	err := Notarize(context.Background(), fakeConfig(t, fake), testPkg(t, false), &out)
	if err == nil || !strings.Contains(err.Error(), "not signed") {
		t.Fatalf("err = %v", err)
	}
	if fake.Polls() != 0 || len(fake.Uploaded()) != 0 {
		t.Fatal("an unsigned package reached the service")
	}
}

func TestMissingKeyInputsAreNamed(t *testing.T) {
	cfg, _ := FromEnv(func(string) string { return "" })
	err := Notarize(context.Background(), cfg, "unused.pkg", &bytes.Buffer{})
	for _, env := range []string{IssuerEnv, KeyIDEnv, KeyEnv} {
		if !strings.Contains(errText(err), env) {
			t.Errorf("error does not name %s: %v", env, err)
		}
	}
}

func TestStapleWithoutTicketLeavesThePackage(t *testing.T) {
	fake := notarytest.New(t)
	fake.NoTicket = true
	path := testPkg(t, true)
	before, _ := os.ReadFile(path)
	err := Staple(context.Background(), fakeConfig(t, fake), path, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("a failed staple changed the package")
	}
}

// The trailer, byte for byte: terminator record, ticket, ticket record,
// little-endian, as Apple's stapler lays it out.
func TestTrailerLayout(t *testing.T) {
	ticket := []byte("s8ch-ticket")
	got := appendTicket([]byte("PKG"), ticket)
	want := "PKG" +
		"t8lr\x01\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
		"s8ch-ticket" +
		"t8lr\x01\x00\x02\x00\x0b\x00\x00\x00\x00\x00\x00\x00"
	if string(got) != want {
		t.Fatalf("got %q", got)
	}
	pkg, back, err := splitTicket(got)
	if err != nil || string(pkg) != "PKG" || !bytes.Equal(back, ticket) {
		t.Fatalf("split: %q %q %v", pkg, back, err)
	}
	if _, _, err := splitTicket([]byte("PKG plain, no trailer at all")); err != errNoTicket {
		t.Fatalf("plain file: %v", err)
	}
}
