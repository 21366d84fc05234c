// Package arch holds Pinsight's light repository checks, which need no
// container engine and compile no testcontainers: the architecture rules
// (which package may import or link what, from go list), the library's
// acceptance test (an outside module using Pinsight as a library), and the
// documentation checks (the contributor's guide names every port and
// conformance suite; no file cites a document the repository lacks; every
// relative link of README.md and docs/ reaches a file and, with an anchor,
// a heading; the README's first screen gives the two set-up commands, the
// second the one .ci/run calls).
// Run them alone with go test ./tests/arch.
package arch

// repoRoot is the module's root, relative to this package's directory
// (where go test runs its tests).
const repoRoot = "../.."
