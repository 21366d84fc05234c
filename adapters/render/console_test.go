package render

import (
	"strings"
	"testing"
)

// TestScriptErrorsAreInTheConsole: console.error and an uncaught
// exception are recorded, in order, with the page's URL.
func TestScriptErrorsAreInTheConsole(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	got, err := render(t, r, fx.url("/throws.html"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var logged, thrown bool
	for _, e := range got.Console {
		t.Logf("%s %q %s", e.Kind, e.Text, e.URL)
		logged = logged || (e.Kind == "error" && e.Text == "a console error from the page")
		thrown = thrown || (e.Kind == "exception" && strings.Contains(e.Text, "boom from the page") && e.URL == fx.url("/throws.html"))
	}
	if !logged || !thrown {
		t.Errorf("console %+v: want the console error and the exception", got.Console)
	}
}
