//go:build !unix

package mcp

import (
	"os"
	"os/exec"
)

// setProcAttrs does nothing without process groups.
func setProcAttrs(*exec.Cmd) {}

// killGroup kills the child itself.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
