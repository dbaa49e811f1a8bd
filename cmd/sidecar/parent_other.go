//go:build !linux

package main

import "errors"

// stopWithParent is Linux-only (PR_SET_PDEATHSIG).
func stopWithParent() error {
	return errors.New("only supported on Linux")
}
