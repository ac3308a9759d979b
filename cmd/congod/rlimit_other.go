//go:build !unix

package main

import "log/slog"

// raiseOpenFiles does nothing where there is no such limit to raise.
func raiseOpenFiles(*slog.Logger) {}
