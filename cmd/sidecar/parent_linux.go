package main

import (
	"errors"
	"os"
	"syscall"
)

// stopWithParent asks the kernel to send this process SIGTERM when its
// parent exits (PR_SET_PDEATHSIG), which the signal handler turns into a
// graceful shutdown. A parent that already exited (the sidecar was
// re-parented before the call) is an error.
func stopWithParent() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0); errno != 0 {
		return errno
	}
	if os.Getppid() == 1 {
		return errors.New("the parent process has already exited")
	}
	return nil
}
