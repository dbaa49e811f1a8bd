package mcp

import "syscall"

// setDeathSignal asks Linux to SIGKILL the child if the sidecar dies
// without stopping it (a SIGKILL of the sidecar, an OOM kill); its own
// children then see their stdin close and exit.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
