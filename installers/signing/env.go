package signing

import (
	"fmt"
	"net/url"
	"time"
)

// Environment variables a release engineer sets. Either the PEM pair or
// the PKCS#12 file (with its password) names one identity.
const (
	EnvWindowsCert        = "CTRLD_SIGN_WINDOWS_CERT"
	EnvWindowsKey         = "CTRLD_SIGN_WINDOWS_KEY"
	EnvWindowsPFX         = "CTRLD_SIGN_WINDOWS_PFX"
	EnvWindowsPFXPassword = "CTRLD_SIGN_WINDOWS_PFX_PASSWORD"
	EnvPkgCert            = "CTRLD_SIGN_PKG_CERT"
	EnvPkgKey             = "CTRLD_SIGN_PKG_KEY"
	EnvPkgPFX             = "CTRLD_SIGN_PKG_PFX"
	EnvPkgPFXPassword     = "CTRLD_SIGN_PKG_PFX_PASSWORD"
	EnvMachOCert          = "CTRLD_SIGN_MACHO_CERT"
	EnvMachOKey           = "CTRLD_SIGN_MACHO_KEY"
	EnvMachOPFX           = "CTRLD_SIGN_MACHO_PFX"
	EnvMachOPFXPassword   = "CTRLD_SIGN_MACHO_PFX_PASSWORD"
	EnvTimestampURL       = "CTRLD_SIGN_TIMESTAMP_URL"

	// Earlier names: the MSI pair still works; the productsign keychain
	// identity has no meaning off a Mac and is refused with a pointer to
	// the new names.
	EnvOldMSICert     = "CTRLD_MSI_SIGN_CERT"
	EnvOldMSIKey      = "CTRLD_MSI_SIGN_KEY"
	EnvOldPkgIdentity = "CTRLD_PKG_SIGN_IDENTITY"
)

// Vars are every variable above. They name key files or hold their
// passwords, so a release reads them once and keeps them from every
// process it starts.
var Vars = []string{
	EnvWindowsCert, EnvWindowsKey, EnvWindowsPFX, EnvWindowsPFXPassword,
	EnvPkgCert, EnvPkgKey, EnvPkgPFX, EnvPkgPFXPassword,
	EnvMachOCert, EnvMachOKey, EnvMachOPFX, EnvMachOPFXPassword, EnvTimestampURL,
	EnvOldMSICert, EnvOldMSIKey, EnvOldPkgIdentity,
}

// Config is the signing set-up of a release: nil identities build
// unsigned.
type Config struct {
	Windows *Identity // Authenticode: ctrld-install.exe and the MSI
	Pkg     *Identity // the macOS installer package
	MachO   *Identity // code signatures of the Mach-O files in the pkg
}

// source names one identity's inputs.
type source struct {
	kind             string
	certVar, keyVar  string
	pfxVar, passVar  string
	oldCert, oldKey  string
	purpose          Purpose
	cert, key        string
	pfx, pfxPassword string
}

// FromEnv reads, loads and checks every identity, so that a bad key
// stops a release before any artifact is written. getenv is os.Getenv in
// the release build.
func FromEnv(getenv func(string) string) (Config, error) {
	return fromEnv(getenv, time.Now())
}

func fromEnv(getenv func(string) string, now time.Time) (Config, error) {
	if getenv(EnvOldPkgIdentity) != "" && getenv(EnvPkgCert) == "" && getenv(EnvPkgPFX) == "" {
		return Config{}, fmt.Errorf("%w: %s (a productsign keychain identity) is no longer used: the pkg is signed in Go from %s and %s (PEM) or %s", ErrIdentity, EnvOldPkgIdentity, EnvPkgCert, EnvPkgKey, EnvPkgPFX)
	}
	tsURL, err := timestampURL(getenv(EnvTimestampURL))
	if err != nil {
		return Config{}, err
	}
	windows := source{kind: "Windows", certVar: EnvWindowsCert, keyVar: EnvWindowsKey, pfxVar: EnvWindowsPFX, passVar: EnvWindowsPFXPassword,
		oldCert: EnvOldMSICert, oldKey: EnvOldMSIKey, purpose: WindowsCode}
	pkg := source{kind: "pkg", certVar: EnvPkgCert, keyVar: EnvPkgKey, pfxVar: EnvPkgPFX, passVar: EnvPkgPFXPassword, purpose: MacInstaller}
	machO := source{kind: "Mach-O", certVar: EnvMachOCert, keyVar: EnvMachOKey, pfxVar: EnvMachOPFX, passVar: EnvMachOPFXPassword, purpose: MacCode}
	var cfg Config
	for _, s := range []struct {
		src *source
		dst **Identity
	}{{&windows, &cfg.Windows}, {&pkg, &cfg.Pkg}, {&machO, &cfg.MachO}} {
		s.src.read(getenv)
		id, err := s.src.load(now)
		if err != nil {
			return Config{}, err
		}
		if id != nil {
			id.TimestampURL = tsURL
		}
		*s.dst = id
	}
	return cfg, nil
}

func (s *source) read(getenv func(string) string) {
	s.cert, s.key = getenv(s.certVar), getenv(s.keyVar)
	if s.cert == "" && s.key == "" && s.oldCert != "" {
		s.cert, s.key = getenv(s.oldCert), getenv(s.oldKey)
	}
	s.pfx, s.pfxPassword = getenv(s.pfxVar), getenv(s.passVar)
}

// load returns nil, nil when nothing is configured.
func (s *source) load(now time.Time) (*Identity, error) {
	var id *Identity
	var err error
	switch {
	case s.pfx != "" && (s.cert != "" || s.key != ""):
		return nil, fmt.Errorf("%w: %s signing: set either %s and %s, or %s, not both", ErrIdentity, s.kind, s.certVar, s.keyVar, s.pfxVar)
	case s.pfx != "":
		id, err = LoadPKCS12(s.pfx, s.pfxPassword)
	case s.cert != "" && s.key != "":
		id, err = LoadPEM(s.cert, s.key)
	case s.cert != "" || s.key != "":
		return nil, fmt.Errorf("%w: %s signing needs both %s and %s", ErrIdentity, s.kind, s.certVar, s.keyVar)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s signing: %w", s.kind, err)
	}
	if err := id.Check(s.purpose, now); err != nil {
		return nil, fmt.Errorf("%s signing: %w", s.kind, err)
	}
	return id, nil
}

func timestampURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: %s must be an http(s) URL of an RFC 3161 time-stamping authority", ErrIdentity, EnvTimestampURL)
	}
	return raw, nil
}
