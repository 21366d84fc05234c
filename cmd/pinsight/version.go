package main

import (
	"runtime/debug"
	"strings"

	// Embedded CA roots, used when the system has none (the scratch image).
	_ "golang.org/x/crypto/x509roots/fallback"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// it comes from the module's build information.
var version = ""

// buildVersion is the binary's version as --version, the start-up log and
// /readyz give it (see describeBuild).
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return describeBuild(version, info)
}

// noVCS ends the version of a build that carries no VCS stamp.
const noVCS = "no VCS information: built by go run or go test, with -buildvcs=false, or not in a git clone (go does not stamp git worktrees)"

// describeBuild renders a build's version from its build information:
// the module version (linked, a tag or a pseudo-version) and, from the VCS
// stamp, the commit, its date and whether the tree had uncommitted changes,
// e.g. "v0.0.0-20260101120000-0123456789ab (commit 0123456789ab, 2026-01-01T12:00:00Z, modified)".
// A build without a stamp says so instead of passing for a release.
func describeBuild(linked string, info *debug.BuildInfo) string {
	v := linked
	var commit, date string
	modified := false
	if info != nil {
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				date = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	v = strings.TrimSuffix(v, "+dirty") // said below, with the commit
	if commit == "" {
		return v + " (" + noVCS + ")"
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	parts := []string{"commit " + commit}
	if date != "" {
		parts = append(parts, date)
	}
	if modified {
		parts = append(parts, "modified")
	}
	return v + " (" + strings.Join(parts, ", ") + ")"
}
