package digipin

import (
	"errors"
	"fmt"
	"strings"
)

// ErrOutOfBounds is matched (with errors.Is) by every RangeError.
var ErrOutOfBounds = errors.New("digipin: coordinates out of bounds")

// ErrInvalidCode is matched (with errors.Is) by every SyntaxError.
var ErrInvalidCode = errors.New("digipin: invalid code")

// RangeError reports a coordinate that is NaN, infinite or outside the grid.
type RangeError struct {
	Field    string // "latitude" or "longitude"
	Value    float64
	Min, Max float64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("digipin: %s %v is outside %v to %v", e.Field, e.Value, e.Min, e.Max)
}

// Reason is the message without the package prefix, for API responses.
func (e *RangeError) Reason() string {
	return fmt.Sprintf("must be a finite number from %v to %v", e.Min, e.Max)
}

// Is makes errors.Is(err, ErrOutOfBounds) true.
func (e *RangeError) Is(target error) bool { return target == ErrOutOfBounds }

// FieldErrors puts the reason under the coordinate's name, for transports
// (an error that lists field errors is an invalid input).
func (e *RangeError) FieldErrors() map[string][]string {
	return map[string][]string{e.Field: {e.Reason()}}
}

// SyntaxError reports a code that is not a valid DIGIPIN (or prefix).
type SyntaxError struct {
	Input   string // the text as given
	Invalid []rune // offending characters, in order of first appearance
	Length  int    // symbols found, excluding separators
	Want    string // expected length, e.g. "10" or "1 to 10"
}

func (e *SyntaxError) Error() string { return "digipin: " + e.Reason() }

// Reason explains what is wrong, naming the offending characters and the
// valid set.
func (e *SyntaxError) Reason() string {
	if len(e.Invalid) > 0 {
		quoted := make([]string, len(e.Invalid))
		for i, r := range e.Invalid {
			quoted[i] = fmt.Sprintf("%q", r)
		}
		return fmt.Sprintf("invalid character%s %s: valid characters are %s (hyphens optional)",
			plural(len(quoted)), strings.Join(quoted, ", "), validSet())
	}
	return fmt.Sprintf("must be %s characters excluding hyphens, got %d", e.Want, e.Length)
}

// Is makes errors.Is(err, ErrInvalidCode) true.
func (e *SyntaxError) Is(target error) bool { return target == ErrInvalidCode }

// FieldErrors puts the reason under "digipin", for transports (an error
// that lists field errors is an invalid input).
func (e *SyntaxError) FieldErrors() map[string][]string {
	return map[string][]string{"digipin": {e.Reason()}}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func validSet() string {
	parts := make([]string, len(Alphabet))
	for i := range parts {
		parts[i] = Alphabet[i : i+1]
	}
	return strings.Join(parts, " ")
}
