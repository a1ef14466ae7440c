package notary

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// AWS's own worked example of a signed S3 GET (the Signature Version 4
// header-based authentication page): its published signature pins the
// key derivation, the canonical request and the string to sign.
func TestSignV4MatchesAWSWorkedExample(t *testing.T) {
	req, err := http.NewRequest(http.MethodGet, "https://examplebucket.s3.amazonaws.com/test.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Range", "bytes=0-9")
	creds := awsCredentials{AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}
	emptyHash := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	signV4(req, creds, "us-east-1", "s3", emptyHash, time.Date(2013, 5, 24, 0, 0, 0, 0, time.UTC))
	want := "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request," +
		"SignedHeaders=host;range;x-amz-content-sha256;x-amz-date," +
		"Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
	if got := req.Header.Get("Authorization"); got != want {
		t.Fatalf("Authorization:\n got %s\nwant %s", got, want)
	}
}

func TestAWSEscapeKeepsOnlyUnreservedAndSlash(t *testing.T) {
	got := awsEscapePath("prod/AROA:1238aa04 x+y~z_.-")
	if want := "prod/AROA%3A1238aa04%20x%2By~z_.-"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if strings.Contains(awsEscape("a/b", true), "/") {
		t.Fatal("a query value keeps its slash")
	}
}

func TestObjectURLStyles(t *testing.T) {
	s := submission{Bucket: "notary-submissions-prod", Object: "prod/AROARQRX7CZS3PRF6ZA5L:1238aa04"}
	for endpoint, want := range map[string]string{
		DefaultS3URL:                          "https://notary-submissions-prod.s3.us-west-2.amazonaws.com/prod/AROARQRX7CZS3PRF6ZA5L%3A1238aa04",
		"https://s3-accelerate.amazonaws.com": "https://notary-submissions-prod.s3-accelerate.amazonaws.com/prod/AROARQRX7CZS3PRF6ZA5L%3A1238aa04",
		"http://127.0.0.1:9000/s3":            "http://127.0.0.1:9000/s3/notary-submissions-prod/prod/AROARQRX7CZS3PRF6ZA5L%3A1238aa04",
		"https://proxy.example.com":           "https://proxy.example.com/notary-submissions-prod/prod/AROARQRX7CZS3PRF6ZA5L%3A1238aa04",
	} {
		c := &client{cfg: Config{S3URL: endpoint}}
		u, err := c.objectURL(s)
		if err != nil || u.String() != want {
			t.Errorf("%s: got %v (%v), want %s", endpoint, u, err, want)
		}
	}
}
