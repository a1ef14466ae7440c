package platform

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OtherLine finds line's launchd plist in JobsDir. The binary is the one
// the job runs, the resolver uid the --cd= of its ProgramArguments.
func (d Darwin) OtherLine(svc Service, line string) (Other, bool) {
	if d.JobsDir == "" || line == svc.Name {
		return Other{}, false
	}
	path := filepath.Join(d.JobsDir, line+".plist")
	if !anyLeft([]string{path}) {
		return Other{}, false
	}
	o := Other{Service: Service{Name: line, Files: []string{path}, Env: svc.Env}, Binary: besideOurs(svc, line)}
	if job, _, err := readJob(path); err == nil {
		o.Ctrld, _ = jobBinary(job)
		o.UID = jobUID(job)
	}
	o.Ctrld = orElse(o.Ctrld, o.Binary)
	return o, true
}

// jobUID is the uid of the first --cd= among the job's arguments.
func jobUID(job map[string]any) string {
	args, _ := job[jobArguments].([]any)
	for _, a := range args {
		s, ok := a.(string)
		if !ok {
			continue
		}
		if v, found := strings.CutPrefix(s, cdFlag); found {
			return uidPrefix(v)
		}
	}
	return ""
}

// RemoveOther unloads the other line's job, and only once launchd no
// longer has it removes its plist: this line's job is loaded only after.
func (d Darwin) RemoveOther(ctx context.Context, o *Other) error {
	path := o.Files[0]
	o.saved = save(o.Files)
	label := o.Name
	if job, _, err := readJob(path); err == nil {
		label = jobName(job, o.Name)
	}
	if err := d.unloadJob(ctx, o.Service, path, label); err != nil {
		return fmt.Errorf("%w: %w", ErrOtherLeft, err)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("%w: %w", ErrOtherLeft, err)
	}
	return nil
}

// RestoreOther writes the plist back and loads it.
func (d Darwin) RestoreOther(ctx context.Context, o Other) error {
	if err := putBack(o.saved); err != nil {
		return err
	}
	return d.Run(ctx, o.Env, launchctl, "load", "-w", o.Files[0])
}
