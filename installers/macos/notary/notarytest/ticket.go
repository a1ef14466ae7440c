package notarytest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
)

// lookup is CloudKit's records/lookup on Apple's ticket container: the
// ticket is filed under "2/1/<the uploaded package's SHA-1 TOC
// checksum, hex>" once the submission is Accepted.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Records []struct {
			RecordName string `json:"recordName"`
		} `json:"records"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Records) == 0 {
		s.problem("ticket lookup body")
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	ticket, uploaded, none := s.ticket, s.uploaded, s.NoTicket
	s.lookups = append(s.lookups, req.Records[0].RecordName)
	s.mu.Unlock()
	var records []map[string]any
	for _, rec := range req.Records {
		if none || ticket == nil || rec.RecordName != recordNameOf(uploaded) {
			records = append(records, map[string]any{"recordName": rec.RecordName, "reason": "Record not found", "serverErrorCode": "NOT_FOUND"})
			continue
		}
		records = append(records, map[string]any{
			"recordName": rec.RecordName, "recordType": "DeveloperIDTicket", "deleted": false, "recordChangeTag": "canary1",
			"created":  map[string]any{"timestamp": 1764871200000, "userRecordName": "_canary", "deviceID": "2"},
			"modified": map[string]any{"timestamp": 1764871200000, "userRecordName": "_canary", "deviceID": "2"},
			"fields":   map[string]any{"signedTicket": map[string]string{"type": "BYTES", "value": base64.StdEncoding.EncodeToString(ticket)}},
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"records": records})
}

func recordNameOf(pkg []byte) string {
	r, err := xar.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		return ""
	}
	return fmt.Sprintf("2/1/%x", r.SignedData())
}
