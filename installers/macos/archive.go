package macos

import (
	"bytes"
	"fmt"
	"io"
	"text/template"

	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
)

// componentDir is the component package's folder in the product archive.
const componentDir = "ctrld.pkg"

// generator names this builder in PackageInfo; constant, for
// reproducibility.
const generator = "ctrld-install"

var packageInfoTmpl = template.Must(template.New("PackageInfo").Parse(`<?xml version="1.0" encoding="utf-8"?>
<pkg-info format-version="2" identifier="{{.ID}}" version="{{.Version}}" install-location="/" auth="root" overwrite-permissions="false" relocatable="false" generator-version="{{.Generator}}">
    <payload numberOfFiles="{{.Files}}" installKBytes="{{.KBytes}}"/>
    <scripts>
        <postinstall file="./postinstall"/>
    </scripts>
</pkg-info>
`))

var distributionTmpl = template.Must(template.New("Distribution").Parse(`<?xml version="1.0" encoding="utf-8"?>
<installer-gui-script minSpecVersion="2">
    <title>{{.Title}}</title>
    <options customize="never" require-scripts="false" hostArchitectures="{{.Arches}}"/>
    <domains enable_localSystem="true"/>
    <choices-outline>
        <line choice="default">
            <line choice="{{.ID}}"/>
        </line>
    </choices-outline>
    <choice id="default"/>
    <choice id="{{.ID}}" visible="false">
        <pkg-ref id="{{.ID}}"/>
    </choice>
    <pkg-ref id="{{.ID}}" version="{{.Version}}" onConclusion="none" installKBytes="{{.KBytes}}" auth="root">#{{.Component}}</pkg-ref>
</installer-gui-script>
`))

type docVars struct {
	ID, Version, Title, Generator, Arches, Component string
	Files                                            int
	KBytes                                           int64
}

// archive writes the product archive: the component's Bom, Payload,
// Scripts and PackageInfo, then the Distribution.
func (p Package) archive(w io.Writer, tree []entry, signer *xar.Signer) error {
	arches, err := hostArchitectures(tree)
	if err != nil {
		return err
	}
	v := docVars{
		ID: xar.Escape(p.Identifier), Version: xar.Escape(p.Version), Title: xar.Escape(p.title()),
		Generator: generator, Arches: arches, Component: componentDir,
		Files: numberOfFiles(tree), KBytes: installKBytes(tree),
	}
	xw := xar.NewWriter(w, p.MTime)
	xw.Signer = signer
	steps := []struct {
		h     xar.Header
		write func(io.Writer) error
	}{
		{xar.Header{Name: componentDir, Type: xar.TypeDirectory, Mode: 0o700}, nil},
		{xar.Header{Name: componentDir + "/Bom", Encoding: xar.EncodingZlib}, func(w io.Writer) error { return writeBom(w, tree, openSource) }},
		// Payload and Scripts are already gzip: stored as they are, as
		// Installer expects.
		{xar.Header{Name: componentDir + "/Payload"}, func(w io.Writer) error { return writeCpioGz(w, tree, openSource) }},
		{xar.Header{Name: componentDir + "/Scripts"}, func(w io.Writer) error { return writeScripts(w, renderPostinstall(p.ctrldName()), p.MTime.Unix()) }},
		{xar.Header{Name: componentDir + "/PackageInfo", Encoding: xar.EncodingZlib}, func(w io.Writer) error { return packageInfoTmpl.Execute(w, v) }},
		{xar.Header{Name: "Distribution", Encoding: xar.EncodingZlib}, func(w io.Writer) error { return distributionTmpl.Execute(w, v) }},
	}
	for _, s := range steps {
		h := s.h
		h.User, h.Group = "root", "wheel"
		if s.write == nil {
			if err := xw.WriteHeader(&h); err != nil {
				return err
			}
			continue
		}
		h.Type, h.Mode = xar.TypeFile, 0o644
		if err := xw.WriteHeader(&h); err != nil {
			return err
		}
		if err := s.write(xw); err != nil {
			return fmt.Errorf("%s: %w", h.Name, err)
		}
	}
	return xw.Close()
}

func (p Package) title() string {
	if p.Title != "" {
		return p.Title
	}
	return "Control D (ctrld)"
}

// writeScripts writes the Scripts archive: ".", then the postinstall shim.
func writeScripts(w io.Writer, postinstall []byte, mtime int64) error {
	tree := []entry{
		{name: ".", mode: dirMode, mtime: mtime},
		{name: "./postinstall", mode: execMode, size: int64(len(postinstall)), mtime: mtime},
	}
	return writeCpioGz(w, tree, func(entry) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(postinstall)), nil
	})
}
