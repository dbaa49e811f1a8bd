//go:build !unix

package mcp

import "os/exec"

// setProcAttrs does nothing without process groups.
func setProcAttrs(*exec.Cmd) {}

// killGroup kills the child itself.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
