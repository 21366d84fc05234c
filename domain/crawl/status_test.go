package crawl_test

import (
	"errors"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

func TestStatusTransitions(t *testing.T) {
	allowed := map[[2]crawl.Status]bool{
		{crawl.StatusQueued, crawl.StatusRunning}:    true,
		{crawl.StatusQueued, crawl.StatusCancelled}:  true,
		{crawl.StatusQueued, crawl.StatusFailed}:     true,
		{crawl.StatusRunning, crawl.StatusFinished}:  true,
		{crawl.StatusRunning, crawl.StatusCancelled}: true,
		{crawl.StatusRunning, crawl.StatusFailed}:    true,
	}
	for _, from := range crawl.Statuses {
		for _, to := range crawl.Statuses {
			want := allowed[[2]crawl.Status{from, to}]
			if got := from.CanBecome(to); got != want {
				t.Errorf("%s -> %s = %v, want %v", from, to, got, want)
			}
			next, err := from.Transition(to)
			if want && (err != nil || next != to) || !want && (!errors.Is(err, crawl.ErrTransition) || next != from) {
				t.Errorf("Transition(%s -> %s) = %s, %v", from, to, next, err)
			}
		}
		if p, ok := crawl.ParseStatus(string(from)); !ok || p != from {
			t.Errorf("ParseStatus(%s) = %s, %v", from, p, ok)
		}
	}
	for _, s := range []string{"", "Queued", "done", "pending"} {
		if _, ok := crawl.ParseStatus(s); ok {
			t.Errorf("ParseStatus(%q) accepted", s)
		}
	}
	if crawl.StatusRunning.Final() || !crawl.StatusCancelled.Final() {
		t.Error("Final is wrong")
	}
}
