// Package race tells a test whether its binary was built with the race
// detector (go test -race), so heavy cases can trim themselves under it
// and the -short quick loop can tell itself from the README's race pass.
package race
