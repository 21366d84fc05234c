package pagecheck

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/pinsight/pinsight/domain/webpage"
)

// RenderMode says whether an analysis loads the page in a browser too:
// off (the HTML the server sent, alone), on (always), or auto (when the
// HTML the server sent looks like an application shell: NeedsRendering).
type RenderMode string

// Render modes. "" reads as RenderOff.
const (
	RenderOff  RenderMode = "off"
	RenderOn   RenderMode = "on"
	RenderAuto RenderMode = "auto"
)

// RenderModes lists the modes, as a client writes them.
var RenderModes = []RenderMode{RenderOff, RenderOn, RenderAuto}

// RenderModesText is the modes as a validation message lists them.
const RenderModesText = "off, on or auto"

// ParseRenderMode accepts off, on and auto ("" is off); ok is false for
// anything else.
func ParseRenderMode(s string) (m RenderMode, ok bool) {
	switch RenderMode(s) {
	case "", RenderOff:
		return RenderOff, true
	case RenderOn, RenderAuto:
		return RenderMode(s), true
	}
	return "", false
}

// Reasons a Rendering gives besides NeedsRendering's.
const (
	// RenderAsked: the request asked for a render (render on).
	RenderAsked = "requested"
	// RenderUnavailable: auto would have rendered, but no browser can run
	// here; the HTML the server sent was analysed.
	RenderUnavailable = "renderer_unavailable"
	// RenderFailed prefixes why a render failed (a crash, the browser's
	// memory cap, no answer); the HTML the server sent was analysed.
	RenderFailed = "render_failed"
)

// RenderWanted says whether a page fetched as f is rendered under mode,
// and why (or why not): on always renders (RenderAsked), auto when
// NeedsRendering says so (with its reason either way), off never (no
// reason).
func RenderWanted(mode RenderMode, f *webpage.Fetched) (bool, string) {
	switch mode {
	case RenderOn:
		return true, RenderAsked
	case RenderAuto:
		return NeedsRendering(f)
	}
	return false, ""
}

// RenderFailure is the Rendering reason of a render that failed with
// err: RenderFailed and the fetch error's reason (or err's text).
func RenderFailure(err error) string {
	why := err.Error()
	if fe := (*webpage.FetchError)(nil); errors.As(err, &fe) {
		why = fe.Reason
	}
	return RenderFailed + ": " + why
}

// NotRendered is a, the analysis of the HTML the server sent, saying why
// it was not rendered.
func NotRendered(a Analysis, reason string) Analysis {
	a.Rendering = &Rendering{Reason: reason}
	return a
}

// MarshalJSON writes a Rendering; one of a page not rendered (NotRendered)
// is only {"rendered":false,"reason":...}: the rest would be empty. It
// reads back as the same value.
func (r Rendering) MarshalJSON() ([]byte, error) {
	type plain Rendering // without this method
	if !r.Rendered && reflect.DeepEqual(r, Rendering{Reason: r.Reason}) {
		return json.Marshal(struct {
			Rendered bool   `json:"rendered"`
			Reason   string `json:"reason,omitempty"`
		}{false, r.Reason})
	}
	return json.Marshal(plain(r))
}
