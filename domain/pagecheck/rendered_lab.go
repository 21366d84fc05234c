package pagecheck

import (
	"math"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Grade is how a lab measurement compares with its thresholds.
type Grade string

// Grades, best first; GradeUnmeasured when the browser measured nothing
// (a duration or a DOM size of 0: the page never painted, say).
const (
	GradeGood             Grade = "good"
	GradeNeedsImprovement Grade = "needs_improvement"
	GradePoor             Grade = "poor"
	GradeUnmeasured       Grade = "unmeasured"
)

// The lab thresholds: a measurement up to its Good threshold is good, up
// to its Poor one needs improvement, beyond it is poor. They are
// Lighthouse's mobile scoring thresholds and the Core Web Vitals' (web.dev
// "Web Vitals", "Defining the Core Web Vitals metrics thresholds"; for
// TTFB web.dev's "Time to First Byte"; for the DOM size Lighthouse's
// dom-size audit, which warns above 800 elements and errs above 1,400).
const (
	FCPGoodMs, FCPPoorMs   = 1800, 3000 // First Contentful Paint
	LCPGoodMs, LCPPoorMs   = 2500, 4000 // Largest Contentful Paint
	CLSGood, CLSPoor       = 0.1, 0.25  // Cumulative Layout Shift (unitless)
	TBTGoodMs, TBTPoorMs   = 200, 600   // Total Blocking Time
	TTFBGoodMs, TTFBPoorMs = 800, 1800  // Time to First Byte
	DOMGood, DOMPoor       = 800, 1400  // elements of the rendered DOM
)

// GradeOf grades v against good and poor: good up to good, needs
// improvement up to poor, poor beyond.
func GradeOf(v, good, poor float64) Grade {
	switch {
	case v <= good:
		return GradeGood
	case v <= poor:
		return GradeNeedsImprovement
	}
	return GradePoor
}

// Metric is one lab measurement and its grade.
type Metric struct {
	// Value is in milliseconds for the timings, unitless for CLS, in
	// elements for the DOM size; 0 when unmeasured.
	Value float64 `json:"value"`
	Grade Grade   `json:"grade"`
}

// Lab is a render's lab performance (webpage.Timing), each measurement
// graded against the thresholds above.
type Lab struct {
	TTFB Metric `json:"ttfb"`
	FCP  Metric `json:"fcp"`
	LCP  Metric `json:"lcp"`
	// LCPElement is the LCP element as a short source snippet, cut to
	// maxValueRunes ("" when none).
	LCPElement string `json:"lcp_element,omitempty"`
	CLS        Metric `json:"cls"`
	TBT        Metric `json:"tbt"`
	DOMSize    Metric `json:"dom_size"`
}

// LabOf grades t. A timing or DOM size of 0 is unmeasured; a CLS of 0 is
// good (nothing shifted) once the page painted (FCP measured), unmeasured
// otherwise. TBT counts only when FCP was measured, as Lighthouse's does.
func LabOf(t webpage.Timing) Lab {
	timed := func(v, good, poor float64) Metric {
		if v <= 0 {
			return Metric{Grade: GradeUnmeasured}
		}
		v = round2(v) // graded as shown
		return Metric{Value: v, Grade: GradeOf(v, good, poor)}
	}
	painted := t.FCP > 0
	out := Lab{
		TTFB:       timed(ms(t.TTFB), TTFBGoodMs, TTFBPoorMs),
		FCP:        timed(ms(t.FCP), FCPGoodMs, FCPPoorMs),
		LCP:        timed(ms(t.LCP), LCPGoodMs, LCPPoorMs),
		LCPElement: cut(t.LCPElement, maxValueRunes),
		DOMSize:    timed(float64(t.DOMNodes), DOMGood, DOMPoor),
		CLS:        Metric{Grade: GradeUnmeasured},
		TBT:        Metric{Grade: GradeUnmeasured},
	}
	if painted || t.CLS > 0 {
		cls := math.Round(t.CLS*1000) / 1000
		out.CLS = Metric{Value: cls, Grade: GradeOf(cls, CLSGood, CLSPoor)}
	}
	if painted {
		tbt := round2(ms(t.TBT))
		out.TBT = Metric{Value: tbt, Grade: GradeOf(tbt, TBTGoodMs, TBTPoorMs)}
	}
	return out
}
