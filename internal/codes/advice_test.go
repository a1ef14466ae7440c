package codes

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEveryCodeHasAdvice(t *testing.T) {
	for _, c := range Table {
		a, ok := AdviceByCode[c.Name]
		if !ok {
			t.Errorf("%s: no advice", c.Name)
			continue
		}
		for field, s := range map[string]string{"scenario": a.Scenario, "next action": a.NextAction, "evidence": a.Evidence} {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: %s empty", c.Name, field)
			}
			// The support doc's table is built from these strings.
			if strings.ContainsAny(s, "|\n") {
				t.Errorf("%s: %s holds a table or line break", c.Name, field)
			}
		}
	}
	for name := range AdviceByCode {
		if _, ok := Lookup(name); !ok {
			t.Errorf("advice for %s, which the table does not have", name)
		}
	}
	for _, stage := range CtrldStages {
		if _, ok := AdviceFor(Code{Stage: stage, Name: "SOME_NEWER_CODE"}); !ok {
			t.Errorf("no advice for an unknown %s code", stage)
		}
	}
	if _, ok := AdviceFor(Code{Stage: StagePackage, Name: "SOME_NEWER_CODE"}); ok {
		t.Error("an unknown package code got advice: the wrapper knows all of its own")
	}
}

// TestAdviceAgreesWithCtrld holds the advice for every code ctrld's own
// support mapping defines to the facts that mapping states, so that drift
// on either side fails here.
func TestAdviceAgreesWithCtrld(t *testing.T) {
	facts := readUpstreamFacts(t)
	if len(facts) < 8 {
		t.Fatalf("only %d codes in the facts file", len(facts))
	}
	for name, phrases := range facts {
		c, ok := Lookup(name)
		if !ok || !IsCtrldStage(c.Stage) {
			t.Errorf("%s: ctrld defines it, our table does not (or not as a ctrld code)", name)
			continue
		}
		a := AdviceByCode[name]
		text := strings.ToLower(a.Scenario + " " + a.NextAction + " " + a.Evidence)
		classes := 0
		for _, p := range phrases {
			if class, ok := strings.CutPrefix(p, classFact); ok {
				classes++
				if Class(class) != c.Class {
					t.Errorf("%s: class %q, ctrld's mapping makes it %s", name, c.Class, class)
				}
				continue
			}
			if banned, ok := strings.CutPrefix(p, "!"); ok {
				if strings.Contains(text, strings.ToLower(banned)) {
					t.Errorf("%s: advice says %q, which ctrld's mapping contradicts", name, banned)
				}
			} else if !strings.Contains(text, strings.ToLower(p)) {
				t.Errorf("%s: advice lacks %q", name, p)
			}
		}
		if classes != 1 {
			t.Errorf("%s: the facts file gives %d classes, want one", name, classes)
		}
	}
}

// classFact starts the facts file's cell that gives a code's class.
const classFact = "class="

// TestEveryCodeHasAClass: every code is transient or terminal, and advice
// that tells support to simply run the install again belongs to a
// transient code only.
func TestEveryCodeHasAClass(t *testing.T) {
	retryAsIs := []string{"retry the install", "then retry", "retry when"}
	for _, c := range Table {
		if c.Class != Transient && c.Class != Terminal {
			t.Errorf("%s: class %q", c.Name, c.Class)
		}
		next := strings.ToLower(AdviceByCode[c.Name].NextAction)
		for _, p := range retryAsIs {
			if strings.Contains(next, p) && c.Class != Transient {
				t.Errorf("%s: the advice says %q, yet the code is %s", c.Name, p, c.Class)
			}
		}
	}
	if got := ClassOf(Code{Stage: StageBootstrap, Name: "SOME_NEWER_CODE", Exit: 37}); got != Terminal {
		t.Errorf("an unknown code is %q, want terminal", got)
	}
}

func readUpstreamFacts(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "upstream-facts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	facts := map[string][]string{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "|")
		name := strings.TrimSpace(cells[0])
		if _, dup := facts[name]; dup || len(cells) < 2 {
			t.Fatalf("facts file: %q repeated or without phrases", name)
		}
		for _, p := range cells[1:] {
			facts[name] = append(facts[name], strings.TrimSpace(p))
		}
	}
	return facts
}
