package reports

import (
	"context"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// DefaultRender is the render mode of a request that names none, unless
// WithRenderDefault says otherwise: off, the HTML the server sent, as
// analyses always ran.
const DefaultRender = pagecheck.RenderOff

// RenderSettings are the server's choices about rendering that are not the
// analyser's (an fx graph supplies them).
type RenderSettings struct {
	// Default is the render mode of requests that name none ("":
	// DefaultRender).
	Default pagecheck.RenderMode
}

// WithRenderDefault makes m the render mode of requests that name none (a
// server whose users audit JavaScript sites, say auto).
func WithRenderDefault(m pagecheck.RenderMode) Option {
	return func(rs *Reports) { rs.renderDefault = m }
}

// renderer is implemented by analysers that can render (*Analyser): render
// on is refused where RenderAvailable fails, and rendered work is charged
// to its own daily quota when it is accepted.
type renderer interface {
	RenderAvailable() error
	AdmitRenders(ctx context.Context, user int64, n int) error
}

// renderOf is the render mode a request asked for (nil: the default). On
// is refused, a *report.ValidationError naming what to install, when the
// analyser cannot render; auto is accepted and analyses the HTML the
// server sent, saying why.
func (rs *Reports) renderOf(s *string) (pagecheck.RenderMode, error) {
	m := rs.renderDefault
	if m == "" {
		m = DefaultRender
	}
	if s != nil {
		var ok bool
		if m, ok = pagecheck.ParseRenderMode(*s); !ok {
			return "", report.Invalid("render", "must be "+pagecheck.RenderModesText)
		}
	}
	if m != pagecheck.RenderOn {
		return m, nil
	}
	r, ok := rs.analyser.(renderer)
	if !ok {
		return "", report.Invalid("render", ErrNoRenderer.Error())
	}
	if err := r.RenderAvailable(); err != nil {
		return "", report.Invalid("render", "is unavailable: "+err.Error())
	}
	return m, nil
}

// admitRenders charges n rendered analyses to the user's daily quota of
// renders as the work is accepted (render on or auto), as admit does for
// analyses; off charges nothing.
func (rs *Reports) admitRenders(ctx context.Context, userID int64, n int, mode pagecheck.RenderMode) error {
	if mode == pagecheck.RenderOff || mode == "" {
		return nil
	}
	if r, ok := rs.analyser.(renderer); ok {
		return r.AdmitRenders(ctx, userID, n)
	}
	return nil
}
