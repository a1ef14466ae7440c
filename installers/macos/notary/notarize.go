package notary

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
)

// maxPollErrors is how many failed status requests in a row end the
// wait: one network hiccup does not throw a submission away.
const maxPollErrors = 5

// Notarize submits the signed package at path to Apple's notary
// service, uploads it, waits (bounded) for the verdict and, unless it is
// Accepted, prints Apple's log and fails. Progress goes to out.
func Notarize(ctx context.Context, cfg Config, path string, out io.Writer) error {
	if err := cfg.checkKey(); err != nil {
		return err
	}
	key, err := loadKey(cfg.KeyPath)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := checkSigned(path, data); err != nil {
		return err
	}
	c := newClient(cfg, out)
	c.tokens = &tokenMaker{issuer: cfg.Issuer, keyID: cfg.KeyID, key: key, now: c.now}
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	name := filepath.Base(path)
	s, err := c.submit(ctx, name, digest)
	if err != nil {
		return err
	}
	c.progress("notarize: %s is submission %s", name, s.ID)
	if err := c.upload(ctx, s, data, digest); err != nil {
		return err
	}
	c.progress("notarize: uploaded %d bytes; waiting for Apple's verdict (at most %s, asking every %s)", len(data), cfg.timeout(), cfg.interval())
	verdict, err := c.wait(ctx, s.ID)
	if err != nil {
		return err
	}
	if verdict == StatusAccepted {
		c.progress("notarize: %s Accepted; staple it next (go run mage.go staple)", name)
		return nil
	}
	c.printLog(ctx, s.ID)
	return fmt.Errorf("notarize: Apple's verdict on %s (submission %s) is %s; its log is above", name, s.ID, verdict)
}

// checkSigned refuses a package without a signature before any upload:
// Apple judges only Developer ID signed packages.
func checkSigned(path string, data []byte) error {
	r, err := xar.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%s: not a flat package: %w", path, err)
	}
	if len(r.Signatures()) == 0 {
		return fmt.Errorf("%s is not signed: notarization needs a package signed with a Developer ID Installer certificate (CTRLD_SIGN_PKG_PFX or CTRLD_SIGN_PKG_CERT/KEY at dist time)", path)
	}
	return nil
}

// wait asks for the status every interval until it is not In Progress,
// for at most the timeout.
func (c *client) wait(ctx context.Context, id string) (string, error) {
	start := c.now()
	deadline := start.Add(c.cfg.timeout())
	failures := 0
	for {
		status, err := c.status(ctx, id)
		elapsed := c.now().Sub(start).Round(time.Second)
		switch {
		case err != nil:
			failures++
			c.progress("notarize: asking for the status failed (%d of %d): %v", failures, maxPollErrors, err)
			if failures >= maxPollErrors {
				return "", fmt.Errorf("notarize: the status of submission %s could not be read: %w", id, err)
			}
		case status == StatusInProgress:
			failures = 0
			c.progress("notarize: %s after %s", status, elapsed)
		case status == StatusAccepted, status == StatusInvalid, status == StatusRejected:
			c.progress("notarize: %s after %s", status, elapsed)
			return status, nil
		default:
			return "", fmt.Errorf("notarize: submission %s has a status this tool does not know: %q", id, bounded(status, 64))
		}
		if !c.now().Add(c.cfg.interval()).Before(deadline) {
			return "", fmt.Errorf("notarize: no verdict on submission %s within %s; it may still finish: ask later with xcrun notarytool info %s, then staple", id, c.cfg.timeout(), id)
		}
		if err := sleep(ctx, c.cfg.interval()); err != nil {
			return "", err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// printLog prints Apple's log for the submission as Apple wrote it; a
// failure to fetch it is printed too, and does not hide the verdict.
func (c *client) printLog(ctx context.Context, id string) {
	log, err := c.developerLog(ctx, id)
	if err != nil {
		c.progress("notarize: Apple's log could not be fetched: %v", err)
		return
	}
	c.progress("notarize: Apple's log for submission %s:", id)
	c.progress("%s", bytes.TrimSpace(log))
}

// FindPkg is the one .pkg in dir, the package Notarize and Staple take.
func FindPkg(dir string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*.pkg"))
	if err != nil {
		return "", err
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", fmt.Errorf("no .pkg in %s: build it first (go run mage.go dist, or pkg)", dir)
	}
	return "", errors.New("more than one .pkg in " + dir + ": remove the old ones")
}
