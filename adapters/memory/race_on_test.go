//go:build race

package memory_test

// raceEnabled is true when the race detector is on (go test -race).
const raceEnabled = true
