package notary

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
)

// Staple looks up the ticket Apple issued for the notarized package at
// path and appends it as Apple's stapler does, so Gatekeeper finds it
// offline. A ticket stapled before is replaced. The file is rewritten
// whole (a temporary file, then a rename), and only once the stapled
// bytes read back.
func Staple(ctx context.Context, cfg Config, path string, out io.Writer) error {
	file, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	pkg, _, err := splitTicket(file)
	switch {
	case err == nil:
		fmt.Fprintf(out, "staple: %s already carries a ticket; it is replaced\n", filepath.Base(path))
	case !errors.Is(err, errNoTicket):
		return fmt.Errorf("%s: %w", path, err)
	}
	digest, err := tocChecksum(pkg)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	name := recordName(digest)
	c := newClient(cfg, out)
	ticket, err := c.lookupTicket(ctx, name)
	if err != nil {
		return err
	}
	stapled := appendTicket(pkg, ticket)
	info, err := Check(stapled)
	if err != nil {
		return fmt.Errorf("staple: the stapled package does not read back: %w", err)
	}
	if err := replaceFile(path, stapled); err != nil {
		return err
	}
	fmt.Fprintf(out, "staple: %s: ticket %s (%d bytes) appended; every member (%d) reads back with its checksums\n",
		filepath.Base(path), name, len(ticket), info.Members)
	return nil
}

// Stapled is what Check found in a stapled package.
type Stapled struct {
	RecordName string
	Ticket     []byte
	Members    int
}

// Check reads a stapled package the way a xar reader does (header, TOC
// and its digest, every member with both checksums) and finds its
// ticket from the end, as Gatekeeper does.
func Check(file []byte) (Stapled, error) {
	pkg, ticket, err := splitTicket(file)
	if err != nil {
		return Stapled{}, err
	}
	if !bytes.HasPrefix(ticket, []byte(ticketMagic)) {
		return Stapled{}, errors.New("the stapled bytes are not a ticket")
	}
	r, err := xar.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		return Stapled{}, err
	}
	n := 0
	for _, h := range r.Members() {
		if h.Type != xar.TypeFile {
			continue
		}
		if _, err := r.ReadFile(h.Name); err != nil {
			return Stapled{}, fmt.Errorf("%s: %w", h.Name, err)
		}
		n++
	}
	digest, err := tocChecksum(pkg)
	if err != nil {
		return Stapled{}, err
	}
	return Stapled{RecordName: recordName(digest), Ticket: ticket, Members: n}, nil
}

// tocChecksum is the TOC checksum the package stores, after the reader
// has checked it against the TOC.
func tocChecksum(pkg []byte) ([]byte, error) {
	r, err := xar.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		return nil, fmt.Errorf("not a flat package: %w", err)
	}
	return r.SignedData(), nil
}

func replaceFile(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".staple-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
