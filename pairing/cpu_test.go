//go:build unix

package pairing

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the processor time the test process has used so far, its
// own and the system's on its behalf.
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports, beside the time a benchmark's operation took, the
// processor time it used (cpu-ns/op, garbage collection included): on a
// busy machine the first counts the time waited for a processor, the
// second only the work.
func reportCPU(b *testing.B) func() {
	start := cpuTime(b)
	return func() {
		b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
	}
}
