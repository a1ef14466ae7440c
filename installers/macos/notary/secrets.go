package notary

import (
	"strings"
	"sync"
)

// minSecret is the shortest value worth redacting: shorter ones would
// blank out ordinary words.
const minSecret = 8

// secretSet holds every secret the run has seen (the API token, the
// temporary AWS credentials): nothing printed or returned may hold one.
type secretSet struct {
	mu     sync.Mutex
	values []string
}

func (s *secretSet) add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if len(v) >= minSecret {
			s.values = append(s.values, v)
		}
	}
}

func (s *secretSet) redact(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.values {
		text = strings.ReplaceAll(text, v, "[redacted]")
	}
	return text
}
