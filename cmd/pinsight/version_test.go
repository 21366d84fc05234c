package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestDescribeBuild renders the version of each kind of build from its
// build information.
func TestDescribeBuild(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	rev := "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name   string
		linked string
		info   *debug.BuildInfo
		want   string
	}{
		{"a tagged build", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: vcs(rev, "2026-01-02T03:04:05Z", "false")},
			"v1.4.0 (commit 0123456789ab, 2026-01-02T03:04:05Z)"},
		{"a modified tree", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260102030405-0123456789ab+dirty"}, Settings: vcs(rev, "2026-01-02T03:04:05Z", "true")},
			"v0.0.0-20260102030405-0123456789ab (commit 0123456789ab, 2026-01-02T03:04:05Z, modified)"},
		{"go run", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			"devel (" + noVCS + ")"},
		{"no build information", "", nil, "devel (" + noVCS + ")"},
		{"a linked version", "v2.0.0", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-01-02T03:04:05Z", "false")},
			"v2.0.0 (commit 0123456789ab, 2026-01-02T03:04:05Z)"},
	} {
		if got := describeBuild(c.linked, c.info); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if !strings.Contains(noVCS, "go run") {
		t.Errorf("the unstamped version %q does not say go run leaves no VCS information", noVCS)
	}
}

// TestVersionOfABuild builds the command as a user does (go build) and
// checks that --version, the start-up log line and /readyz all give the
// same version: in a git clone, naming its commit; elsewhere (a git
// worktree, whose .git is a file, is not stamped by go), saying it has no
// VCS information.
func TestVersionOfABuild(t *testing.T) {
	if testing.Short() {
		t.Skip("links the whole command")
	}
	var commit string
	if fi, err := os.Stat("../../.git"); err == nil && fi.IsDir() {
		if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
			commit = string(head[:12])
		}
	}
	bin := filepath.Join(t.TempDir(), "pinsight")
	vcs := "-buildvcs=auto" // go's default
	if commit != "" {
		vcs = "-buildvcs=true" // stamped even where GOFLAGS says -buildvcs=false
	}
	if out, err := exec.Command("go", "build", vcs, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	version, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "pinsight version ")
	switch {
	case !ok:
		t.Fatalf("--version = %q", out)
	case commit != "" && !strings.Contains(version, "(commit "+commit+", "):
		t.Fatalf("--version = %q, want the commit %s", out, commit)
	case commit == "" && !strings.HasSuffix(version, "("+noVCS+")"):
		t.Fatalf("--version = %q outside a git clone, want it to say it has no VCS information", out)
	}
	t.Logf("--version: %s", version)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	serve := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--database-url", "memory:")
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = serve.Process.Kill(); _ = serve.Wait() }()
	var started, addr string
	lines := bufio.NewScanner(stderr)
	for addr == "" && lines.Scan() {
		var l struct{ Msg, Version, Addr string }
		if json.Unmarshal(lines.Bytes(), &l) != nil {
			continue
		}
		switch l.Msg {
		case "pinsight starting":
			started = l.Version
		case "listening":
			addr = l.Addr
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	if started != version || addr == "" {
		t.Fatalf("start-up log gave version %q (want %q), listening on %q", started, version, addr)
	}
	res, err := http.Get("http://" + addr + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var ready struct {
		Data struct{ Version string } `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&ready); err != nil || ready.Data.Version != version {
		t.Errorf("/readyz version = %q (%v), want %q", ready.Data.Version, err, version)
	}
}
