package notary

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
)

// A flat package's ticket is filed under "2/<hash type>/<hash>": the
// hash is the xar TOC checksum the package stores (the bytes its
// signatures sign), cut to 20 bytes, in hex, and the hash type is the
// code-signing number of its algorithm. This package's TOC checksums
// are SHA-1.
const (
	recordNameVersion = 2
	hashTypeSHA1      = 1
	cdHashSize        = 20
	// ticketMagic starts every ticket Apple's lookup returns.
	ticketMagic = "s8ch"
	maxTicket   = 1 << 20
)

func recordName(tocChecksum []byte) string {
	return fmt.Sprintf("%d/%d/%x", recordNameVersion, hashTypeSHA1, tocChecksum[:min(cdHashSize, len(tocChecksum))])
}

type ticketRequest struct {
	Records []ticketRequestRecord `json:"records"`
}

type ticketRequestRecord struct {
	RecordName string `json:"recordName"`
}

type ticketResponse struct {
	Records []struct {
		RecordName      string `json:"recordName"`
		ServerErrorCode string `json:"serverErrorCode"`
		Reason          string `json:"reason"`
		Fields          struct {
			SignedTicket struct {
				Type  string `json:"type"`
				Value string `json:"value"`
			} `json:"signedTicket"`
		} `json:"fields"`
	} `json:"records"`
}

// lookupTicket asks Apple's ticket service (CloudKit's records/lookup)
// for the ticket filed under name.
func (c *client) lookupTicket(ctx context.Context, name string) ([]byte, error) {
	body, _ := json.Marshal(ticketRequest{Records: []ticketRequestRecord{{RecordName: name}}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.TicketURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	status, data, err := c.send(req, requestTimeout, maxResponse)
	if err != nil {
		return nil, fmt.Errorf("ticket lookup: %w", err)
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("ticket lookup: HTTP %d", status)
	}
	var resp ticketResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, fmt.Errorf("ticket lookup: the answer is not CloudKit's JSON")
	}
	for _, r := range resp.Records {
		if r.RecordName != name {
			continue
		}
		if r.ServerErrorCode != "" {
			return nil, fmt.Errorf("ticket lookup: no ticket for %s (%s: %s): is the package notarized, and is this the file Apple accepted?",
				name, bounded(r.ServerErrorCode, 64), bounded(r.Reason, 200))
		}
		return decodeTicket(r.Fields.SignedTicket.Type, r.Fields.SignedTicket.Value)
	}
	return nil, fmt.Errorf("ticket lookup: the answer has no record %s", name)
}

func decodeTicket(typ, value string) ([]byte, error) {
	if typ != "BYTES" {
		return nil, fmt.Errorf("ticket lookup: signedTicket is %q, not BYTES", bounded(typ, 32))
	}
	ticket, err := base64.StdEncoding.DecodeString(value)
	if err != nil {
		return nil, fmt.Errorf("ticket lookup: signedTicket is not base64")
	}
	if len(ticket) > maxTicket || !bytes.HasPrefix(ticket, []byte(ticketMagic)) {
		return nil, fmt.Errorf("ticket lookup: signedTicket is not a notarization ticket (%d bytes)", len(ticket))
	}
	return ticket, nil
}
