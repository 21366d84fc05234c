package render

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// TestHungryPageFailsAndTheNextRenders: a page allocating about 2 GB in
// JavaScript fails with a reason naming memory (its tab killed out of
// memory, or the browser over its cap), and the next render works.
func TestHungryPageFailsAndTheNextRenders(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{MemoryMB: 1024}, fx.host())
	_, err := render(t, r, fx.url("/hungry.html"), nil)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || !strings.Contains(fe.Reason, "memory") {
		t.Fatalf("err = %v, want a failure naming memory", err)
	}
	t.Logf("the hungry page: %v", err)
	if _, err := render(t, r, fx.url("/spa.html"), nil); err != nil {
		t.Fatalf("the render after: %v", err)
	}
}

// TestBrowserKilledMidRenderIsRestarted: the browser killed during a
// render fails that render with a clear reason; the next render starts a
// new browser and works.
func TestBrowserKilledMidRenderIsRestarted(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	if _, err := render(t, r, fx.url("/spa.html"), nil); err != nil {
		t.Fatal(err)
	}
	first := r.b.pid
	done := make(chan error, 1)
	go func() {
		_, err := render(t, r, fx.url("/never.html"), nil)
		done <- err
	}()
	time.Sleep(1500 * time.Millisecond) // the render is under way
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var fe *webpage.FetchError
	select {
	case err := <-done:
		if !errors.As(err, &fe) || !strings.Contains(fe.Reason, "crashed") {
			t.Fatalf("err = %v, want the browser's crash", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the render did not end after the browser died")
	}
	if _, err := render(t, r, fx.url("/spa.html"), nil); err != nil {
		t.Fatalf("the render after the crash: %v", err)
	}
	if r.b.pid == first {
		t.Error("the browser was not restarted")
	}
}

// TestCrashedTabFailsItsRender: a tab whose process crashes during the
// render (Page.crash, as the protocol crashes a renderer) fails its render
// with the crash as its reason; the browser goes on.
func TestCrashedTabFailsItsRender(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	r.navigated = func(ctx context.Context) {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, _ = chromedp.Call(cctx, page.Crash, cdp.Empty{}) // answered by no one: the tab is gone
	}
	_, err := render(t, r, fx.url("/never.html"), nil)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || !strings.Contains(fe.Reason, "crashed its tab") {
		t.Fatalf("err = %v, want the tab's crash", err)
	}
	t.Logf("the crashed tab: %v", err)
	b := r.b
	r.navigated = nil
	if _, err := render(t, r, fx.url("/spa.html"), nil); err != nil {
		t.Fatalf("the render after the crash: %v", err)
	}
	if r.b != b {
		t.Error("the browser was restarted for a tab's crash")
	}
}

// TestCloseLeavesNoProcess: once Close returns, no process of the browser
// is left, neither running nor a zombie child of this one.
func TestCloseLeavesNoProcess(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	if _, err := render(t, r, fx.url("/spa.html"), nil); err != nil {
		t.Fatal(err)
	}
	marker := r.b.marker()
	tree := descendants(r.b.pid)
	if len(tree) < 3 {
		t.Fatalf("the browser has %d processes before Close, want several", len(tree))
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if left := using(marker); len(left) != 0 {
		t.Errorf("processes left after Close: %v", left)
	}
	for _, pid := range tree {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil && len(b) > 0 {
			t.Errorf("process %d of the browser is left: %.100s", pid, b)
		}
	}
	for _, pid := range children(os.Getpid()) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		t.Errorf("a child of the test is left: %s", b)
	}
	if _, err := render(t, r, fx.url("/spa.html"), nil); !errors.Is(err, ErrClosed) {
		t.Errorf("a render after Close: err = %v, want ErrClosed", err)
	}
	if err := r.Available(); !errors.Is(err, ports.ErrNoBrowser) {
		t.Errorf("Available after Close = %v, want ErrNoBrowser", err)
	}
}

// children are the processes whose parent is pid.
func children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(p); ok && ppid == pid {
			out = append(out, p)
		}
	}
	return out
}
