//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// setProcAttrs puts the child in a process group of its own, so that
// stopping it reaches its own children too (npx runs the server as a
// child of its own), and a terminal's Ctrl-C reaches only the sidecar,
// which then stops its servers in order.
func setProcAttrs(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setDeathSignal(cmd.SysProcAttr)
}

// killGroup sends SIGKILL to the child's process group: whatever of it is
// still running once the SDK has closed stdin, waited and sent SIGTERM.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
