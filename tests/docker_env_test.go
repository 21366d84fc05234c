package tests

import (
	"os"
	"os/exec"
)

// localPostGISImage is the image tests/images/postgis/build.sh builds.
const localPostGISImage = "pinsight/postgis:15-3.3-local"

// ryukImage is testcontainers' reaper, which a registry-less machine lacks.
const ryukImage = "testcontainers/ryuk:0.14.0"

// adaptToLocalDocker lets the README's test command run as it is on a
// machine without registry access, as .ci/run does explicitly: it picks the
// locally built PostGIS image when the public one is absent, disables the
// reaper when its image is absent, and, inside a container whose engine
// socket is local, looks for mapped ports on loopback. Variables already
// set win.
func adaptToLocalDocker() {
	if _, err := exec.LookPath("docker"); err != nil {
		return
	}
	have := func(image string) bool { return exec.Command("docker", "image", "inspect", image).Run() == nil }
	setDefault := func(name, value string) {
		if _, set := os.LookupEnv(name); !set {
			os.Setenv(name, value)
		}
	}
	if os.Getenv("PINSIGHT_POSTGIS_IMAGE") == "" && !have(defaultPostGISImage) && have(localPostGISImage) {
		os.Setenv("PINSIGHT_POSTGIS_IMAGE", localPostGISImage)
	}
	if !have(ryukImage) {
		setDefault("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	if _, err := os.Stat("/.dockerenv"); err == nil && os.Getenv("DOCKER_HOST") == "" {
		setDefault("TESTCONTAINERS_HOST_OVERRIDE", "localhost")
	}
}
