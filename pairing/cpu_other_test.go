//go:build !unix

package pairing

import "testing"

// reportCPU reports nothing where the processor time is not known.
func reportCPU(*testing.B) func() { return func() {} }
