package provision

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// restoreBound bounds putting the other line's service back and starting
// it after this line failed to start.
const restoreBound = 10 * time.Second

// OtherLineInstalled is the other ctrld line's service that start would
// move the device off, when one is installed: the one question preflight
// and start both ask.
func (p *Provisioner) OtherLineInstalled() (platform.Other, bool) {
	return p.otherLine(p.service())
}

// otherLine is the service of another ctrld line installed on the
// machine, when svc's binary is one of the lines: both want port 53 and
// the home folder, so only one may stay.
func (p *Provisioner) otherLine(svc platform.Service) (platform.Other, bool) {
	if !slices.Contains(names.CtrldNames, svc.Name) {
		return platform.Other{}, false
	}
	for _, line := range names.OtherLines(svc.Name) {
		if o, found := p.OS.OtherLine(svc, line.Binary); found {
			p.know(o.UID)
			return o, true
		}
	}
	return platform.Other{}, false
}

// moveFresh moves the device from the other line to svc's: the settings
// are checked first, so nothing changes when start could not even run;
// then the other line's service goes, and this line starts with the
// token, or else with the resolver uid the other line ran with. If this
// line does not start, its remains are cleaned up and the other line's
// service is put back and started, so the device keeps resolving; the
// outcome is this line's failure.
func (p *Provisioner) moveFresh(ctx context.Context, svc platform.Service, o platform.Other) codes.Outcome {
	s, err := p.moveSettings(ctx, o)
	if err != nil {
		return codes.Failure(codes.WrapperInterrupted)
	}
	args, ok := moveArgs(s, o.UID)
	if !ok {
		return codes.Failure(codes.ProfilePrefsMissing)
	}
	if bad, failed := p.checkInputs(s); failed {
		return bad
	}
	config := p.saveConfig()
	if failed := p.removeOther(ctx, &o); failed {
		return codes.Failure(codes.ServiceInstallFailed)
	}
	out := p.start(ctx, svc, args)
	if !out.OK {
		p.undo()
		config.putBack()
		p.restoreOther(o)
		return out
	}
	p.dropOtherBinary(o)
	return out
}

// moveUpgrade removes the other line's service when this line's is
// installed too, then upgrades this line's. A failed upgrade keeps this
// line's service running, so the other is not put back beside it.
func (p *Provisioner) moveUpgrade(ctx context.Context, svc platform.Service, o platform.Other) codes.Outcome {
	if failed := p.removeOther(ctx, &o); failed {
		return codes.Failure(codes.ServiceInstallFailed)
	}
	out := p.upgrade(ctx, svc)
	if out.OK {
		p.dropOtherBinary(o)
	}
	return out
}

// moveSettings gathers the settings; it waits for a token only when the
// other line left no resolver uid to start with.
func (p *Provisioner) moveSettings(ctx context.Context, o platform.Other) (settings.Settings, error) {
	if o.UID != "" {
		return p.gather(ctx)
	}
	return p.waitForToken(ctx)
}

// moveArgs are start's arguments for the move: the token's when one is
// set, or else the resolver uid's (--cd), which needs no token.
func moveArgs(s settings.Settings, uid string) ([]string, bool) {
	if _, ok := s.Get(settings.ProvisionToken); ok {
		return freshArgs(s), true
	}
	if uid == "" {
		return nil, false
	}
	return slices.Insert(freshArgs(s), 1, "--cd="+uid), true
}

// removeOther stops and removes the other line's service within the OS's
// removal bound. When something of it is left, whatever was removed is
// put back and started: this line is never started beside it.
func (p *Provisioner) removeOther(ctx context.Context, o *platform.Other) (failed bool) {
	rctx, cancel := context.WithTimeout(ctx, p.OS.Bounds().Removal)
	defer cancel()
	err := p.OS.RemoveOther(rctx, o)
	if err == nil {
		return false
	}
	p.warn("the " + o.Name + " service could not be removed, so " + ServiceName(p.Config.Ctrld) + " was not started beside it: " + p.reason(err))
	p.restoreOther(*o)
	return true
}

// restoreOther puts the other line's service back and starts it, even
// when the run was interrupted: the device must keep resolving.
func (p *Provisioner) restoreOther(o platform.Other) {
	ctx, cancel := context.WithTimeout(context.Background(), restoreBound)
	defer cancel()
	if err := p.OS.RestoreOther(ctx, o); err != nil {
		p.warn("the " + o.Name + " service could not be put back: " + p.reason(err))
	}
}

// dropOtherBinary removes our binary of the other line once this line
// runs.
func (p *Provisioner) dropOtherBinary(o platform.Other) {
	if err := platform.RemoveOtherBinary(o); err != nil {
		p.warn("the " + o.Name + " binary could not be removed: " + p.reason(err))
	}
}

// maxConfig bounds the ctrld configuration kept for a restore.
const maxConfig = 1 << 20

// savedConfig is ctrld's configuration in the home folder as the other
// line ran with it: this line's start rewrites the file both lines share.
type savedConfig struct {
	path string
	data []byte
	mode fs.FileMode
	ok   bool
}

func (p *Provisioner) saveConfig() savedConfig {
	path := filepath.Join(p.Config.Home, names.CtrldConfig)
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return savedConfig{path: path}
	}
	data, err := safefile.Read(path, safefile.Options{MaxSize: maxConfig, NoLinks: true})
	if err != nil {
		return savedConfig{path: path}
	}
	return savedConfig{path: path, data: data, mode: info.Mode().Perm(), ok: true}
}

// putBack writes the saved configuration back in place of whatever this
// line's start left.
func (c savedConfig) putBack() {
	if !c.ok {
		return
	}
	os.Remove(c.path)
	if f, err := safefile.CreateNew(c.path, c.mode); err == nil {
		f.Write(c.data)
		f.Close()
	}
}
