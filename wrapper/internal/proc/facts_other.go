//go:build !linux && !darwin

package proc

import "errors"

// On Windows ctrld's tree sits in a kill-on-close job object that dies
// with the wrapper: there is no tree to tell apart afterwards.

// Boot is not known here.
func Boot() (string, error) { return "", errors.ErrUnsupported }

// Lookup is not known here.
func Lookup(int) (Facts, error) { return Facts{}, errors.ErrUnsupported }

// Group is not known here.
func Group(int) []Facts { return nil }
