//go:build unix && !linux

package mcp

import "syscall"

// setDeathSignal does nothing where there is no parent-death signal; a
// child of a sidecar that died sees its stdin close.
func setDeathSignal(*syscall.SysProcAttr) {}
