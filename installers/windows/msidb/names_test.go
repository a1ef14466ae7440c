package msidb

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
)

func units(hex ...uint16) string { return string(utf16.Decode(hex)) }

// The stored names of the spec's example directory and msibuild databases.
var packedNames = []struct {
	name   string
	table  bool
	stored string
}{
	{"File", true, units(0x4840, 0x430F, 0x422F)},
	{"_StringPool", true, units(0x4840, 0x3F3F, 0x4577, 0x446C, 0x3E6A, 0x44B2, 0x482F)},
	{"_StringData", true, units(0x4840, 0x3F3F, 0x4577, 0x446C, 0x3B6A, 0x45E4, 0x4824)},
	{"ctrld.cab", false, units(0x45E6, 0x43F5, 0x47A7, 0x4126, 0x4825)},
	{"Binary.Blob", false, units(0x430B, 0x4131, 0x4735, 0x3AFE, 0x44AF, 0x4825)},
	{"big-file.cab", false, units(0x4325, 0x482A, 0x002D, 0x4329, 0x422F, 0x41BE, 0x4164)},
	{"InstallExecuteSequence", true, units(0x4840, 0x4452, 0x45F6, 0x43E4, 0x3BAF, 0x423B, 0x4626, 0x4237, 0x421C, 0x4634, 0x4468, 0x4226)},
	{"AdvtExecuteSequence", true, units(0x4840, 0x41CA, 0x45F9, 0x46CE, 0x41A8, 0x45F8, 0x3F28, 0x4528, 0x4238, 0x41B1, 0x4828)},
	{"FeatureComponents", true, units(0x4840, 0x420F, 0x45E4, 0x4578, 0x3B28, 0x4432, 0x44B3, 0x4231, 0x45F1, 0x4836)},
	{"LaunchCondition", true, units(0x4840, 0x4115, 0x4478, 0x42E6, 0x448C, 0x41F1, 0x45EC, 0x44AC, 0x4831)},
	{"CustomAction", true, units(0x4840, 0x460C, 0x45F6, 0x4432, 0x418A, 0x4337, 0x4472)},
	{"MsiFileHash", true, units(0x4840, 0x4596, 0x3BEC, 0x43EC, 0x3C68, 0x45A4, 0x482B)},
	{"Component", true, units(0x4840, 0x448C, 0x44F0, 0x4472, 0x4468, 0x4837)},
	{"Directory", true, units(0x4840, 0x430D, 0x4235, 0x45E6, 0x4572, 0x483C)},
	{"RemoveFile", true, units(0x4840, 0x421B, 0x44B0, 0x4239, 0x430F, 0x422F)},
	{"Property", true, units(0x4840, 0x4559, 0x44F2, 0x4568, 0x4737)},
	{"Upgrade", true, units(0x4840, 0x44DE, 0x456A, 0x41E4, 0x4828)},
	{"Registry", true, units(0x4840, 0x421B, 0x432A, 0x45F6, 0x4735)},
	{"Feature", true, units(0x4840, 0x420F, 0x45E4, 0x4578, 0x4828)},
	{"_Tables", true, units(0x4840, 0x3F7F, 0x4164, 0x422F, 0x4836)},
	{"_Columns", true, units(0x4840, 0x3B3F, 0x43F2, 0x4438, 0x45B1)},
	{"Media", true, units(0x4840, 0x4216, 0x4327, 0x4824)},
}

func TestNamePackingMatchesTheSpecExamples(t *testing.T) {
	for _, c := range packedNames {
		got, err := EncodeName(c.name, c.table)
		if err != nil || got != c.stored {
			t.Errorf("EncodeName(%q) = %x, %v; want %x", c.name, utf16.Encode([]rune(got)), err, utf16.Encode([]rune(c.stored)))
		}
		name, table := DecodeName(c.stored)
		if name != c.name || table != c.table {
			t.Errorf("DecodeName(%x) = %q, %v", utf16.Encode([]rune(c.stored)), name, table)
		}
	}
}

func TestNamePackingLimits(t *testing.T) {
	if _, err := EncodeName(strings.Repeat("a", 60), true); err != nil {
		t.Errorf("60 characters with the marker fit: %v", err)
	}
	if _, err := EncodeName(strings.Repeat("a", 61), true); !errors.Is(err, ErrNameTooLong) {
		t.Errorf("61 characters with the marker: %v", err)
	}
	if _, err := EncodeName(strings.Repeat("a", 62), false); err != nil {
		t.Errorf("62 characters fit: %v", err)
	}
	if _, err := EncodeName(strings.Repeat("-", 32), false); !errors.Is(err, ErrNameTooLong) {
		t.Errorf("32 unpackable characters: %v", err)
	}
	if _, err := EncodeName("a\u4000b", false); err == nil {
		t.Error("a character in the packed range must be refused")
	}
	if raw := "\x05SummaryInformation"; func() string { n, _ := DecodeName(raw); return n }() != raw {
		t.Error("raw names decode to themselves")
	}
}
