//go:build race

package tests

// raceDetector reports whether the test binary was built with -race.
const raceDetector = true
