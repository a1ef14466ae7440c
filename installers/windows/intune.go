package windows

import (
	"encoding/json"
	"io"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// ReturnCode is one entry of an Intune Win32 app's return codes, in the
// Microsoft Graph win32LobAppReturnCode shape.
type ReturnCode struct {
	ODataType  string `json:"@odata.type"`
	ReturnCode int    `json:"returnCode"`
	Type       string `json:"type"` // success, softReboot, hardReboot, retry, failed
}

const returnCodeType = "#microsoft.graph.win32LobAppReturnCode"

// intuneDefaults are the codes Intune fills in for a new Win32 app; they
// stay.
var intuneDefaults = []ReturnCode{
	{returnCodeType, 0, "success"},
	{returnCodeType, 1707, "success"},
	{returnCodeType, 3010, "softReboot"},
	{returnCodeType, 1641, "hardReboot"},
	{returnCodeType, 1618, "retry"},
}

// ReturnCodes lists Intune's defaults, then every failure code of the code
// table (a transient one as retry, a terminal one as failed), then 1603 (a
// failure before provisioning recorded one).
func ReturnCodes() []ReturnCode {
	out := append([]ReturnCode(nil), intuneDefaults...)
	for _, c := range codes.Table {
		out = append(out, ReturnCode{returnCodeType, c.Exit, ReturnCodeType(c.Class)})
	}
	return append(out, ReturnCode{returnCodeType, 1603, "failed"})
}

// ReturnCodeType is the Intune return-code type of a code's class: Intune
// retries a transient failure within minutes, and leaves a terminal one
// for its next evaluation.
func ReturnCodeType(class codes.Class) string {
	if class == codes.Transient {
		return "retry"
	}
	return "failed"
}

// ReturnCodesFile is the release's file of return codes, for an admin to
// paste into Intune; it is data, so it is never signed.
type ReturnCodesFile struct{}

// FileName is the file's name in the release.
func (ReturnCodesFile) FileName() string { return "intune-return-codes.json" }

// Build writes the return codes as indented JSON.
func (ReturnCodesFile) Build(w io.Writer) (signed bool, err error) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return false, enc.Encode(ReturnCodes())
}
