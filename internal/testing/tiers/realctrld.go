package tiers

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/magefile/mage/mg"
)

// The real-ctrld tier: every scenario has namespaces of its own and spends
// most of its time waiting on ctrld's timeouts, so its scenarios run many
// at once, beside the other tiers.
const (
	realCtrldPackage  = "./internal/testing/realctrld"
	realCtrldParallel = "8"
)

func realCtrldCommand() Command {
	return goCommand("test", "-count=1", "-timeout", testTimeout, "-parallel", realCtrldParallel, realCtrldPackage)
}

// realCtrldPriority runs the tier ahead of the others on the CPU: its
// scenarios hold the real ctrld to the contract's time bounds (a reload
// within 27 s), which the other tiers' compiles and compression must not
// eat into. Raising a priority takes root, as the tier does; elsewhere
// nice says it could not and runs the tier as it is.
func realCtrldPriority() []string {
	nice, err := exec.LookPath("nice")
	if err != nil {
		return nil
	}
	return []string{nice, "-n", "-10"}
}

// backgroundTier is a go test run beside the others; its output is kept
// and printed whole once it ends, so it does not interleave.
type backgroundTier struct {
	cancel context.CancelFunc
	done   chan error
	output bytes.Buffer
}

// startRealCtrldTier starts the real-ctrld tier's go test.
func startRealCtrldTier() *backgroundTier {
	ctx, cancel := context.WithCancel(context.Background())
	tier := &backgroundTier{cancel: cancel, done: make(chan error, 1)}
	argv := append(append(realCtrldPriority(), mg.GoCmd()), realCtrldCommand().Args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = &tier.output, &tier.output
	// go test passes an interrupt on to the test binary, whose scenarios
	// then end their namespaces; a kill would orphan them.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	fmt.Println("real-ctrld tier: started beside the others")
	go func() { tier.done <- cmd.Run() }()
	return tier
}

// wait ends the tier (at once when the others failed), prints its output
// and joins its failure to theirs.
func (t *backgroundTier) wait(others error) error {
	if others != nil {
		t.cancel()
	}
	err := <-t.done
	t.cancel()
	os.Stdout.Write(t.output.Bytes())
	if err != nil && others == nil {
		return fmt.Errorf("real-ctrld tier: %w", err)
	}
	return others
}
