//go:build race

package httpapi_test

// raceEnabled reports a test binary built with -race (the heaviest
// full-data comparisons skip under it; CI runs them without -race).
const raceEnabled = true
