//go:build !unix

package httpapi_test

import "testing"

// reportCPU runs run; the CPU time per iteration is reported on unix only.
func reportCPU(_ *testing.B, run func()) { run() }
