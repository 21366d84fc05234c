package tests

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testImage is a container image the suite runs: the public image where a
// registry is reachable, else one built locally from Debian's packages by a
// script under tests/images (no registry is needed for that).
type testImage struct {
	env    string // variable naming the image to use; set, it wins
	public string // the public image, used when present or pullable
	local  string // the name the build script gives its image (recipeTag)
	script string // the build script, relative to tests/
}

// postGIS is the PostgreSQL 15 + PostGIS 3.3 image of the Postgres suite.
var postGIS = testImage{
	env:    "PINSIGHT_POSTGIS_IMAGE",
	public: "postgis/postgis:15-3.3",
	local:  recipeTag("pinsight/postgis:15-3.3-local", "images/postgis/build.sh"),
	script: "images/postgis/build.sh",
}

// redisImage is the Redis 7 image of the shared rate-limiter tests.
var redisImage = testImage{
	env:    "PINSIGHT_REDIS_IMAGE",
	public: "redis:7-bookworm",
	local:  recipeTag("pinsight/redis:7-local", "images/redis/build.sh"),
	script: "images/redis/build.sh",
}

// recipeTag is name with a hash of the recipe appended: the build script,
// the other files of its directory but the READMEs, and images/debian.sh.
// The scripts keep an image that exists, so a changed recipe must change
// the name: an image built from an older one is then not used.
func recipeTag(name, script string) string {
	dir := filepath.Dir(filepath.FromSlash(script))
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	files = append(files, filepath.Join("images", "debian.sh"))
	h := sha256.New()
	for _, f := range files {
		if strings.HasSuffix(f, ".md") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(f), len(b))
		h.Write(b)
	}
	return fmt.Sprintf("%s-%x", name, h.Sum(nil)[:6])
}

// resolvedImages remembers each image's resolution, so a test binary
// inspects, pulls or builds an image once.
var resolvedImages sync.Map // env -> *imageResolution

type imageResolution struct {
	once sync.Once
	name string
	err  error
}

// image returns the image name to run, making it available first: the
// variable's value when set, else the public image when present or
// pullable, else the local image, built by its script when missing (the
// script takes a lock, so parallel test binaries build it once). It skips
// (or fails, see requireDocker) without a Docker engine.
func (img testImage) image(tb testing.TB) string {
	tb.Helper()
	skipWithoutDocker(tb)
	v, _ := resolvedImages.LoadOrStore(img.env, &imageResolution{})
	r := v.(*imageResolution)
	r.once.Do(func() { r.name, r.err = img.resolve(tb) })
	if r.err != nil {
		tb.Fatal(r.err)
	}
	return r.name
}

func (img testImage) resolve(tb testing.TB) (string, error) {
	if name := os.Getenv(img.env); name != "" {
		return name, nil
	}
	if haveImage(img.public) || haveImage(img.local) {
		if haveImage(img.public) {
			return img.public, nil
		}
		return img.local, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "pull", "-q", img.public).CombinedOutput(); err == nil {
		return img.public, nil
	} else {
		tb.Logf("%s cannot be pulled (%s); building %s from Debian's packages with tests/%s (once; a few minutes)",
			img.public, strings.TrimSpace(string(out)), img.local, img.script)
	}
	start := time.Now()
	cmd := exec.Command("bash", filepath.FromSlash(img.script))
	cmd.Env = append(os.Environ(), img.env+"="+img.local)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s with tests/%s failed (it needs root for apt-get and debootstrap): %v\n%s", img.local, img.script, err, out)
	}
	tb.Logf("%s ready after %s", img.local, time.Since(start).Round(time.Second))
	return img.local, nil
}

// haveImage reports whether the engine holds the image.
func haveImage(name string) bool {
	return exec.Command("docker", "image", "inspect", name).Run() == nil
}
