package tests

import (
	"context"
	"testing"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
)

// pauseContainer freezes c's processes (docker pause: its connections stay
// open and the kernel still accepts new ones, but nothing answers) and
// returns the function that wakes them, which the test's end also calls.
func pauseContainer(t *testing.T, c testcontainers.Container) (unpause func()) {
	t.Helper()
	provider, err := testcontainers.ProviderDefault.GetProvider()
	if err != nil {
		t.Fatal(err)
	}
	docker := provider.(*testcontainers.DockerProvider).Client()
	ctx := context.Background()
	if _, err := docker.ContainerPause(ctx, c.GetContainerID(), client.ContainerPauseOptions{}); err != nil {
		t.Fatal(err)
	}
	paused := true
	unpause = func() {
		if paused {
			paused = false
			if _, err := docker.ContainerUnpause(ctx, c.GetContainerID(), client.ContainerUnpauseOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(unpause)
	return unpause
}
