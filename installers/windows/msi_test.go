//go:build linux

package windows

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func buildMSI(t *testing.T, p Package) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), p.FileName())
	if err := writeFile(out, p.Build); err != nil {
		t.Fatal(err)
	}
	return out
}

func forEachArch(t *testing.T, test func(t *testing.T, arch string)) {
	for _, arch := range Archs {
		t.Run(arch, func(t *testing.T) { test(t, arch) })
	}
}

func tool(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(testenv.RequireTool(t, name), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// table returns a table's rows as msiinfo exports them (header lines
// dropped), tab-split.
func table(t *testing.T, msi, name string) [][]string {
	t.Helper()
	var rows [][]string
	for i, line := range strings.Split(strings.TrimRight(tool(t, "msiinfo", "export", msi, name), "\r\n"), "\n") {
		if i >= 3 {
			rows = append(rows, strings.Split(strings.TrimRight(line, "\r"), "\t"))
		}
	}
	return rows
}

func row(rows [][]string, key string) []string {
	for _, r := range rows {
		if r[0] == key {
			return r
		}
	}
	return nil
}

func number(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// suminfo reads msiinfo suminfo into name → value.
func suminfo(t *testing.T, msi string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(tool(t, "msiinfo", "suminfo", msi), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			m[k] = v
		}
	}
	return m
}

// dumpStreams extracts every stream with msidump and returns the folder.
func dumpStreams(t *testing.T, msi string) string {
	dir := t.TempDir()
	tool(t, "msidump", "-d", dir, "-s", "-t", msi)
	return dir
}

var wantPlatform = map[string]struct {
	template, programFiles, systemFolder string
	componentAttributes, minPageCount    int
	// extracted is where msiextract puts the files: it knows
	// ProgramFilesFolder, not ProgramFiles64Folder.
	extracted string
}{
	ArchX64:   {"x64;1033", "ProgramFiles64Folder", "System64Folder", 256, 200, "ControlD"},
	ArchArm64: {"Arm64;1033", "ProgramFiles64Folder", "System64Folder", 256, 500, "ControlD"},
	ArchX86:   {"Intel;1033", "ProgramFilesFolder", "SystemFolder", 0, 200, "Program Files/ControlD"},
}

func TestTables(t *testing.T) {
	forEachArch(t, func(t *testing.T, arch string) {
		want := wantPlatform[arch]
		ctrld, wrapper := fakeExes(t)
		t.Setenv(names.TokenEnv, testenv.Canary) // must not leak into the build
		msi := buildMSI(t, pkg(arch, ctrld, wrapper))

		ca := row(table(t, msi, "CustomAction"), "Provision")
		typ := number(t, ca[1])
		for bit, name := range map[int]string{CATypeExeFromFile: "EXE from an installed file", CAInScript: "deferred", CANoImpersonate: "no impersonate", CAHideTarget: "HideTarget"} {
			if typ&bit != bit {
				t.Errorf("Provision type %d lacks %s", typ, name)
			}
		}
		if typ != 11282 || typ&CAContinue != 0 || typ&0x3f != CATypeExeFromFile {
			t.Errorf("Provision type %d: must be 11282, Return=check, EXE from file", typ)
		}
		if ca[2] != "ctrld_install.exe" || ca[3] != provisionCommand || !strings.HasPrefix(ca[3], `start --token "[PROVISION_TOKEN]"`) {
			t.Errorf("Provision source/target %q", ca)
		}
		un := row(table(t, msi, "CustomAction"), "UninstallService")
		if number(t, un[1]) != 3154 || un[2] != "ctrld_install.exe" || un[3] != "uninstall" {
			t.Errorf("UninstallService %q: want 3154, deferred, no impersonate, exit code ignored", un)
		}

		seq := table(t, msi, "InstallExecuteSequence")
		at := func(action string) int { return number(t, row(seq, action)[2]) }
		if p := row(seq, "Provision"); at("Provision") <= at("InstallFiles") || at("Provision") >= at("InstallFinalize") || p[1] != "NOT Installed AND NOT REMOVE" {
			t.Errorf("Provision at %d (InstallFiles %d), condition %q", at("Provision"), at("InstallFiles"), p[1])
		}
		if u := row(seq, "UninstallService"); at("UninstallService") >= at("RemoveFiles") || at("UninstallService") <= at("InstallInitialize") || u[1] != `REMOVE="ALL" AND NOT UPGRADINGPRODUCTCODE` {
			t.Errorf("UninstallService at %d (RemoveFiles %d), condition %q", at("UninstallService"), at("RemoveFiles"), u[1])
		}
		hide := row(table(t, msi, "CustomAction"), "HideARP")
		if hide == nil || number(t, hide[1]) != 51 || hide[2] != "ARPSYSTEMCOMPONENT" || hide[3] != "1" {
			t.Errorf("HideARP %q: want type 51 setting ARPSYSTEMCOMPONENT to 1", hide)
		}
		if h := row(seq, "HideARP"); h == nil || h[1] != `HIDE_ARP="1"` || at("HideARP") >= at("RegisterProduct") || at("HideARP") >= at("InstallInitialize") {
			t.Errorf("HideARP %q: want it before the install script, conditioned on HIDE_ARP", h)
		}
		if at("RemoveExistingProducts") != at("InstallValidate")+1 {
			t.Error("the old version must go right after InstallValidate")
		}

		props := table(t, msi, "Property")
		if r := row(props, "MsiHiddenProperties"); r == nil || r[1] != "PROVISION_TOKEN" {
			t.Errorf("MsiHiddenProperties %v", r)
		}
		if row(props, "PROVISION_TOKEN") != nil {
			t.Error("the token property has a default value")
		}
		secure := strings.Split(row(props, "SecureCustomProperties")[1], ";")
		for _, p := range append([]string{"WIX_UPGRADE_DETECTED", "WIX_DOWNGRADE_DETECTED", PropHideARP}, Properties...) {
			if !contains(secure, p) {
				t.Errorf("%s not secure: %s", p, secure)
			}
		}
		if row(props, PropHideARP) != nil || row(props, "ARPSYSTEMCOMPONENT") != nil {
			t.Error("the product is hidden from Add/Remove Programs by default")
		}
		if r := row(props, "UpgradeCode"); r == nil || r[1] != UpgradeCode {
			t.Errorf("UpgradeCode %v", r)
		}
		if r := row(props, "ALLUSERS"); r == nil || r[1] != "1" {
			t.Errorf("ALLUSERS %v: the install must be per-machine", r)
		}

		for _, c := range table(t, msi, "Component") {
			if number(t, c[3]) != want.componentAttributes {
				t.Errorf("component %s attributes %s, want %d", c[0], c[3], want.componentAttributes)
			}
		}
		dirs := table(t, msi, "Directory")
		if r := row(dirs, "INSTALLDIR"); r == nil || r[1] != want.programFiles || r[2] != "ControlD" {
			t.Errorf("INSTALLDIR %v, want under %s", r, want.programFiles)
		}
		if r := row(dirs, want.programFiles); r == nil || r[1] != "TARGETDIR" {
			t.Errorf("%s %v", want.programFiles, r)
		}
		roots := 0
		for _, d := range dirs {
			if d[1] == "" {
				roots++
			}
		}
		if roots != 1 || row(dirs, "TARGETDIR")[1] != "" {
			t.Errorf("%d directory roots, want TARGETDIR alone", roots)
		}
		for _, r := range table(t, msi, "Registry") {
			if r[3] == "EventMessageFile" && r[4] != "["+want.systemFolder+"]EventCreate.exe" {
				t.Errorf("EventMessageFile %q, want in %s", r[4], want.systemFolder)
			}
		}

		sum := suminfo(t, msi)
		pages, _, _ := strings.Cut(sum["Version"], " ")
		if sum["Template"] != want.template || number(t, pages) < want.minPageCount {
			t.Errorf("Template %q, Page Count %q; want %s, at least %d", sum["Template"], pages, want.template, want.minPageCount)
		}
		if sum["Source"] != "2 (2)" || !strings.HasPrefix(sum["Revision number (UUID)"], "{") || sum["Created"] != "Tue Nov 14 22:13:20 2023" {
			t.Errorf("summary %v", sum)
		}

		media := table(t, msi, "Media")
		files := table(t, msi, "File")
		if len(media) != 1 || media[0][3] != "#ctrld.cab" || number(t, media[0][1]) != len(files) {
			t.Errorf("Media %v for %d files", media, len(files))
		}
		sort.Slice(files, func(i, j int) bool { return number(t, files[i][7]) < number(t, files[j][7]) })
		var bySequence []string
		for i, f := range files {
			if number(t, f[7]) != i+1 {
				t.Errorf("File %s sequence %s, want %d", f[0], f[7], i+1)
			}
			bySequence = append(bySequence, f[0])
		}
		if got := cabinetNames(t, filepath.Join(dumpStreams(t, msi), "_Streams", "ctrld.cab")); !reflect.DeepEqual(got, bySequence) {
			t.Errorf("cabinet order %v, File sequence %v", got, bySequence)
		}
		noCanary(t, msi)
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// cabinetNames lists a cabinet's files in order, as cabextract sees them.
func cabinetNames(t *testing.T, cab string) []string {
	var names []string
	for _, line := range strings.Split(tool(t, "cabextract", "-l", cab), "\n") {
		if cells := strings.Split(line, " | "); len(cells) == 3 && !strings.Contains(line, "File size") {
			names = append(names, strings.TrimSpace(cells[2]))
		}
	}
	return names
}

// noCanary looks for the token in the raw file, every table and every
// stream.
func noCanary(t *testing.T, msi string) {
	t.Helper()
	raw, _ := os.ReadFile(msi)
	if bytes.Contains(raw, []byte(testenv.Canary)) {
		t.Error("canary token in the MSI")
	}
	for _, f := range testenv.FilesWithCanary(dumpStreams(t, msi)) {
		t.Errorf("canary token in %s", filepath.Base(f))
	}
	if strings.Contains(tool(t, "msiinfo", "suminfo", msi), testenv.Canary) {
		t.Error("canary token in the summary")
	}
}

// Every reader we can get agrees the MSIs are well-formed.
func TestIndependentReadersAcceptTheMSI(t *testing.T) {
	forEachArch(t, func(t *testing.T, arch string) {
		ctrld, wrapper := randomExes(t, 300_000)
		msi := buildMSI(t, pkg(arch, ctrld, wrapper))

		tables := strings.Fields(tool(t, "msiinfo", "tables", msi))
		for _, want := range []string{"_SummaryInformation", "Property", "File", "CustomAction", "InstallExecuteSequence", "RemoveFile", "Upgrade", "MsiFileHash"} {
			if !contains(tables, want) {
				t.Errorf("msiinfo tables: no %s in %v", want, tables)
			}
		}
		for _, name := range tables {
			tool(t, "msiinfo", "export", msi, name)
		}
		if streams := strings.Fields(tool(t, "msiinfo", "streams", msi)); !reflect.DeepEqual(streams, []string{"ctrld.cab", "\x05SummaryInformation"}) {
			t.Errorf("msiinfo streams: %v", streams)
		}
		dump := dumpStreams(t, msi)
		if _, err := os.Stat(filepath.Join(dump, "CustomAction.idt")); err != nil {
			t.Errorf("msidump wrote no tables: %v", err)
		}

		out := t.TempDir()
		tool(t, "msiextract", "-C", out, msi)
		for src, name := range map[string]string{ctrld: "ctrld.exe", wrapper: "ctrld-install.exe"} {
			want, _ := os.ReadFile(src)
			got, err := os.ReadFile(filepath.Join(out, wantPlatform[arch].extracted, name))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("msiextract: %s differs from the input (%v)", name, err)
			}
		}

		python := testenv.RequireTool(t, "/usr/bin/python3")
		check := `import sys, olefile
o = olefile.OleFileIO(sys.argv[1], raise_defects=olefile.DEFECT_INCORRECT)
assert not o.parsing_issues, o.parsing_issues
assert o.root.clsid == "000C1084-0000-0000-C000-000000000046", o.root.clsid
print(len(o.listdir()))`
		if n := strings.TrimSpace(tool(t, python, "-c", check, msi)); number(t, n) < 15 {
			t.Errorf("olefile lists %s streams", n)
		}

		cabinet := filepath.Join(dump, "_Streams", "ctrld.cab")
		if res := tool(t, "cabextract", "-t", cabinet); strings.Count(res, "  OK") != 2 || !strings.Contains(res, "no errors") {
			t.Errorf("cabextract -t:\n%s", res)
		}
	})
}

// The pure-Go x64 MSI has the wixl-built MSI's tables. Rows are compared
// as sets; the allowed differences are listed here with their reason.
func TestTablesMatchWixlGolden(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	msi := buildMSI(t, pkg(ArchX64, ctrld, wrapper))
	allowed := map[string]map[string]string{
		// wixl wrote the long name alone, which ICE03 flags; a name that is
		// not 8.3 now gets a short name too, as WiX writes it.
		"File": {
			"ctrld_install.exe\tWrapper\tctrld-install.exe\t15\t\t\t512\t2": "ctrld_install.exe\tWrapper\tCTRLD-~1.EXE|ctrld-install.exe\t15\t\t\t512\t2",
		},
		// HIDE_ARP is secure so that it reaches the install's server side.
		"Property": {
			"SecureCustomProperties\tWIX_DOWNGRADE_DETECTED;WIX_UPGRADE_DETECTED;PROVISION_TOKEN;CUSTOM_HOSTNAME;INTERCEPT_MODE;USE_DEV_ENVIRONMENT": "SecureCustomProperties\tWIX_DOWNGRADE_DETECTED;WIX_UPGRADE_DETECTED;PROVISION_TOKEN;CUSTOM_HOSTNAME;INTERCEPT_MODE;USE_DEV_ENVIRONMENT;HIDE_ARP",
		},
		// RemoveFile's keys are made from the file names, as the rows are
		// made from the contract's list.
		"RemoveFile": {
			"RemoveLock\tCtrld\t.ctrld-install.lock\tINSTALLDIR\t2":     "Remove_.ctrld_install.lock\tCtrld\t.ctrld-install.lock\tINSTALLDIR\t2",
			"RemoveResult\tCtrld\tprovision_result.json\tINSTALLDIR\t2": "Remove_provision_result.json\tCtrld\tprovision_result.json\tINSTALLDIR\t2",
			"RemoveConfig\tCtrld\tctrld.toml\tINSTALLDIR\t2":            "Remove_ctrld.toml\tCtrld\tctrld.toml\tINSTALLDIR\t2",
		},
		"_SummaryInformation": {
			// The package code now also hashes the tables, so that it changes
			// with any byte of the package, not only with the binaries.
			"9\t{56AEF7D1-2B58-5153-A4FB-6ACC5639A040}": "9\t" + suminfo(t, msi)["Revision number (UUID)"],
			// The creating application is this one.
			"18\tmsitools 0.101": "18\tctrld-install",
		},
	}
	// Rows wixl never wrote: HIDE_ARP's action and its place, the guards
	// against a property that would break out of its quoted argument on
	// the provisioning command line, and the removal of the wrapper's
	// other files in the install folder.
	added := map[string][]string{
		"RemoveFile": {
			"Remove_.ctrld_install.tree\tCtrld\t.ctrld-install.tree\tINSTALLDIR\t2",
			"Remove_.ctrld_install_last_result.tmp\tCtrld\t.ctrld-install-last-result.tmp\tINSTALLDIR\t2",
			"Remove_ctrld_install_last_result\tCtrld\tctrld-install-last-result\tINSTALLDIR\t2",
			"Remove_ctrld_install_evidence.json\tCtrld\tctrld-install-evidence.json\tINSTALLDIR\t2",
		},
		"CustomAction":           {"HideARP\t51\tARPSYSTEMCOMPONENT\t1\t"},
		"InstallExecuteSequence": {"HideARP\tHIDE_ARP=\"1\"\t1001"},
		"Property":               {propQuote + "\t\"", propBackslash + "\t\\"},
	}
	for _, p := range commandLineProperties(provisionCommand) {
		guard := argumentGuard(p)
		added["LaunchCondition"] = append(added["LaunchCondition"], guard.Condition+"\t"+guard.Description)
	}
	golden, _ := filepath.Glob(filepath.Join("testdata", "wixl-golden", "*.idt"))
	if len(golden) < 25 {
		t.Fatalf("%d golden tables", len(golden))
	}
	var goldenNames []string
	for _, path := range golden {
		name := strings.TrimSuffix(filepath.Base(path), ".idt")
		goldenNames = append(goldenNames, name)
		data, _ := os.ReadFile(path)
		want := idtLines(string(data))
		for from, to := range allowed[name] {
			if i := slices.Index(want[3:], from); i >= 0 {
				want[3+i] = to
			} else {
				t.Errorf("%s: the allowed difference %q is not in the golden file", name, from)
			}
		}
		want = append(want[:3], sorted(append(want[3:], added[name]...))...)
		if got := idtLines(tool(t, "msiinfo", "export", msi, name)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
	ours := strings.Fields(tool(t, "msiinfo", "tables", msi))
	if !reflect.DeepEqual(sorted(ours), sorted(goldenNames)) {
		t.Errorf("tables %v, wixl had %v", sorted(ours), sorted(goldenNames))
	}
}

// idtLines: the three header lines as they are, then the rows sorted.
func idtLines(export string) []string {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(export, "\r\n", "\n"), "\n"), "\n")
	if len(lines) < 3 {
		return lines
	}
	return append(lines[:3:3], sorted(lines[3:])...)
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func TestReproducibleAndDerivedCodes(t *testing.T) {
	ctrld, wrapper := randomExes(t, 100_000)
	products, components := map[string]string{}, map[string]string{}
	forEachArch(t, func(t *testing.T, arch string) {
		p := pkg(arch, ctrld, wrapper)
		a, _ := os.ReadFile(buildMSI(t, p))
		b, _ := os.ReadFile(buildMSI(t, p))
		if !bytes.Equal(a, b) {
			t.Fatal("two builds with the same inputs differ")
		}
		next := p
		next.Version = "1.2.4"
		m1, m2 := buildMSI(t, p), buildMSI(t, next)
		pc1, pc2 := row(table(t, m1, "Property"), "ProductCode")[1], row(table(t, m2, "Property"), "ProductCode")[1]
		if pc1 == pc2 {
			t.Error("a new version must get a new ProductCode (major upgrade)")
		}
		c1, c2 := row(table(t, m1, "Component"), "Ctrld")[1], row(table(t, m2, "Component"), "Ctrld")[1]
		if c1 != c2 {
			t.Error("component GUIDs must not change between versions")
		}
		products[arch], components[arch] = pc1, c1

		changed := t.TempDir() + "/ctrld.exe"
		data, _ := os.ReadFile(ctrld)
		data[len(data)/2] ^= 1
		os.WriteFile(changed, data, 0o755)
		other := p
		other.Ctrld = changed
		if suminfo(t, m1)["Revision number (UUID)"] == suminfo(t, buildMSI(t, other))["Revision number (UUID)"] {
			t.Error("a changed file must give a new package code")
		}
	})
	if len(products) < len(Archs) {
		return // a subtest stopped early and said why
	}
	if len(distinct(products)) != len(Archs) || len(distinct(components)) != len(Archs) {
		t.Errorf("each architecture needs its own ProductCode and component GUIDs: %v %v", products, components)
	}
}

func distinct(m map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, v := range m {
		out[v] = true
	}
	return out
}

// The build runs no tool: with nothing on PATH, all three MSIs build.
func TestBuildNeedsNoTools(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	t.Setenv("PATH", t.TempDir())
	for _, arch := range Archs {
		if _, err := pkg(arch, ctrld, wrapper).Build(&bytes.Buffer{}); err != nil {
			t.Errorf("%s: %v", arch, err)
		}
	}
}

func TestBadInputsAreRefusedClearly(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	for _, c := range []struct {
		p    Package
		want string
	}{
		{Package{Version: "1.2.3", Arch: "ia64", Ctrld: ctrld, Wrapper: wrapper}, `arch "ia64"`},
		{Package{Version: "1.2", Arch: ArchX64, Ctrld: ctrld, Wrapper: wrapper}, "want major.minor.build"},
		{Package{Version: "1.256.0", Arch: ArchX64, Ctrld: ctrld, Wrapper: wrapper}, "from 0 to 255"},
		{Package{Version: "1.2.3-rc1", Arch: ArchX64, Ctrld: ctrld, Wrapper: wrapper}, "from 0 to 65535"},
		{Package{Version: "1.2.3", Arch: ArchX64, Ctrld: ctrld + ".missing", Wrapper: wrapper}, "no such file"},
	} {
		_, err := c.p.Build(&bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.p, err, c.want)
		}
	}
}

func TestFileNameColumn(t *testing.T) {
	taken := map[string]bool{}
	for _, c := range []struct{ long, want string }{
		{"ctrld.exe", "ctrld.exe"},
		{"ctrld-install.exe", "CTRLD-~1.EXE|ctrld-install.exe"},
		{"ctrld-installer.exe", "CTRLD-~2.EXE|ctrld-installer.exe"},
		{"CTRLD.EXE", "CTRLD~1.EXE|CTRLD.EXE"}, // taken, case aside
		{"ctrld client.json", "CTRLDC~1.JSO|ctrld client.json"},
		{"README", "README"},
	} {
		if got := fileNameColumn(c.long, taken); got != c.want {
			t.Errorf("%s: %s, want %s", c.long, got, c.want)
		}
	}
}

func writeFile(path string, build func(io.Writer) (bool, error)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := build(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
