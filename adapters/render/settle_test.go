package render

import (
	"testing"
	"time"
)

// TestNeverSettlingPageIsCut: a page whose load never ends (an image that
// never finishes) and whose network never goes idle is taken as it
// stands, Settled false, within Total.
func TestNeverSettlingPageIsCut(t *testing.T) {
	fx := newFixtures(t)
	total := 8 * time.Second
	r := newTestRenderer(t, Config{Total: total, NavigationTimeout: 4 * time.Second, IdleTimeout: 2 * time.Second}, fx.host())
	start := time.Now()
	got, err := render(t, r, fx.url("/never.html"), nil)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if got.Settled {
		t.Error("Settled = true for a page that never settles")
	}
	if took > total+5*time.Second { // generous: the machine may be busy
		t.Errorf("the render took %v, want it cut near Total (%v)", took, total)
	}
	if textOf(find(got.Document, "title")) != "Never settles" || len(got.Screenshot) == 0 {
		t.Errorf("want the DOM and a screenshot of the page as it stood")
	}
}
