package toolset

import (
	"errors"
	"fmt"
)

// ErrInvalidOption marks options the caller must change (an unknown format
// or deferral mode, a malformed always-loaded pattern). Every error Build
// returns wraps it.
var ErrInvalidOption = errors.New("invalid toolset option")

// invalid formats an error wrapping ErrInvalidOption; its message is the
// formatted text alone.
func invalid(format string, args ...any) error {
	return &optionError{msg: fmt.Sprintf(format, args...)}
}

type optionError struct{ msg string }

func (e *optionError) Error() string { return e.msg }
func (e *optionError) Unwrap() error { return ErrInvalidOption }
