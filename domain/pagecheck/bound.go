package pagecheck

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Bounds on what one check holds, whatever the page serves (a 2 MiB title,
// thousands of links or headings, huge header values): every check passes
// through them once, when it is made, so one stored report stays within
// tens of kilobytes.
const (
	// maxValueRunes bounds one string of a value, an object's keys
	// included: a longer one is cut and ends with ellipsis.
	maxValueRunes = 200
	// maxValueItems bounds the entries of one list or object of a value;
	// the entries beyond are left out and counted in Check.Omitted.
	maxValueItems = 25
	// maxValueText bounds the characters of all the strings of one value
	// together; a string that no longer fits is left out and counted in
	// Check.Omitted.
	maxValueText = 2000
	// maxMessageRunes bounds a check's message, cut like a string of a
	// value.
	maxMessageRunes = 300
)

// ellipsis ends a string that was cut to its bound.
const ellipsis = "…"

// bounded returns c with its value and message within the bounds above and
// Omitted counting the entries left out of its value.
func bounded(c Check) Check {
	b := bounder{left: maxValueText}
	c.Value = b.value(c.Value)
	c.Omitted = b.omitted
	c.Message = cut(c.Message, maxMessageRunes)
	return c
}

// bounder bounds one value: left is what remains of maxValueText, omitted
// counts the entries left out.
type bounder struct {
	left, omitted int
}

// value bounds v, a JSON value (string, float64, bool, nil, []any,
// map[string]any), as the whole value of a check: a string is only cut.
func (b *bounder) value(v any) any {
	if s, ok := v.(string); ok {
		s = cut(s, maxValueRunes)
		b.left -= utf8.RuneCountInString(s)
		return s
	}
	if n, ok := within(v); ok && n <= b.left {
		b.left -= n
		return v // item would copy it whole: nothing to cut or leave out
	}
	v, _ = b.item(v)
	return v
}

// within is the characters of the strings of v, the keys of its objects
// included; ok is false when item would change v: a string to cut or to
// make valid UTF-8, a list or object with more than maxValueItems entries,
// or a nil list or object (item makes it empty).
func within(v any) (n int, ok bool) {
	switch x := v.(type) {
	case string:
		return textWithin(x)
	case []any:
		if x == nil || len(x) > maxValueItems {
			return 0, false
		}
		for _, e := range x {
			m, ok := within(e)
			if !ok {
				return 0, false
			}
			n += m
		}
		return n, true
	case map[string]any:
		if x == nil || len(x) > maxValueItems {
			return 0, false
		}
		for k, e := range x {
			mk, ok := textWithin(k)
			if !ok {
				return 0, false
			}
			me, ok := within(e)
			if !ok {
				return 0, false
			}
			n += mk + me
		}
		return n, true
	}
	return 0, true
}

// item bounds v as an entry of a list or object; false when it no longer
// fits and must be left out.
func (b *bounder) item(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		return b.text(x)
	case []any:
		out := make([]any, 0, min(len(x), maxValueItems))
		for i, e := range x {
			if len(out) == maxValueItems {
				b.omitted += len(x) - i
				break
			}
			if e, ok := b.item(e); ok {
				out = append(out, e)
			} else {
				b.omitted++
			}
		}
		return out, true
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // which entries stay does not depend on map order
		out := make(map[string]any, min(len(x), maxValueItems))
		for i, k := range keys {
			if len(out) == maxValueItems {
				b.omitted += len(keys) - i
				break
			}
			key, ok := b.text(k)
			if _, taken := out[key]; !ok || taken {
				b.omitted++
				continue
			}
			if e, ok := b.item(x[k]); ok {
				out[key] = e
			} else {
				b.omitted++
			}
		}
		return out, true
	}
	return v, true // numbers, booleans, null
}

// textWithin is the characters of s; ok is false when text would cut it
// or make it valid UTF-8.
func textWithin(s string) (n int, ok bool) {
	n = utf8.RuneCountInString(s)
	return n, n <= maxValueRunes && utf8.ValidString(s)
}

// text cuts s to maxValueRunes and takes it from the budget; false when
// the budget no longer holds it.
func (b *bounder) text(s string) (string, bool) {
	s = cut(s, maxValueRunes)
	n := utf8.RuneCountInString(s)
	if n > b.left {
		return "", false
	}
	b.left -= n
	return s, true
}

// cut returns s, made valid UTF-8, when it has at most limit characters;
// otherwise its first limit-1 characters followed by ellipsis. It reads at
// most limit+1 characters of s, however long s is.
func cut(s string, limit int) string {
	n, end := 0, 0 // end: where the first limit-1 characters end
	for i := range s {
		switch n {
		case limit - 1:
			end = i
		case limit: // a character beyond the limit: cut
			return strings.ToValidUTF8(s[:end], "\uFFFD") + ellipsis
		}
		n++
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
