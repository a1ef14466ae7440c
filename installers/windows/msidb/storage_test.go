package msidb

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"sort"
)

// mapStorage is an in-memory container and storage of stored names.
type mapStorage map[string][]byte

func (m mapStorage) Add(name string, size int64, r io.Reader) error {
	if _, dup := m[name]; dup {
		return fmt.Errorf("duplicate stream %q", name)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if int64(len(data)) != size {
		return fmt.Errorf("stream %q: %d bytes, said %d", name, len(data), size)
	}
	m[name] = data
	return nil
}

func (m mapStorage) Names() []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (m mapStorage) Open(name string) (io.Reader, error) {
	data, ok := m[name]
	if !ok {
		return nil, fmt.Errorf("no stream %q", name)
	}
	return bytes.NewReader(data), nil
}

func (m mapStorage) loader() loader {
	return func(name string, table bool) ([]byte, bool, error) {
		enc, err := EncodeName(name, table)
		if err != nil {
			return nil, false, err
		}
		data, ok := m[enc]
		return data, ok, nil
	}
}

func equalRows(a, b []Row) bool { return reflect.DeepEqual(a, b) }
