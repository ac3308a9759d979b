//go:build unix

package main

import (
	"log/slog"
	"syscall"
)

// raiseOpenFiles raises the process's limit of open files to the hard
// limit (M57), as Go does at start on most systems, and logs both, so
// that an operator sees how many connections the process can hold.
func raiseOpenFiles(logger *slog.Logger) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		logger.Warn("could not read the limit of open files", "err", err)
		return
	}
	if l.Cur < l.Max {
		raised := syscall.Rlimit{Cur: l.Max, Max: l.Max}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err != nil {
			logger.Warn("could not raise the limit of open files", "soft", l.Cur, "hard", l.Max, "err", err)
			return
		}
		l = raised
	}
	logger.Info("open files", "limit", l.Cur)
}
