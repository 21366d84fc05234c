package tests

import (
	"os"
	"os/exec"
)

// ryukImage is testcontainers' reaper, which a registry-less machine lacks.
const ryukImage = "testcontainers/ryuk:0.14.0"

// adaptToLocalDocker lets the README's test command run as it is on a
// machine without registry access: it disables the reaper when its image is
// absent (every container is removed by the tests themselves), and, inside
// a container whose engine socket is local, looks for mapped ports on
// loopback. Variables already set win. Images are resolved (pulled or built)
// by testImage.image.
func adaptToLocalDocker() {
	if _, err := exec.LookPath("docker"); err != nil {
		return
	}
	setDefault := func(name, value string) {
		if _, set := os.LookupEnv(name); !set {
			os.Setenv(name, value)
		}
	}
	if !haveImage(ryukImage) {
		setDefault("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	if _, err := os.Stat("/.dockerenv"); err == nil && os.Getenv("DOCKER_HOST") == "" {
		setDefault("TESTCONTAINERS_HOST_OVERRIDE", "localhost")
	}
}
