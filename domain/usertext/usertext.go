// Package usertext holds the one rule for text that users write and other
// users (or the writer) later read: review titles and texts, API key names,
// and, more strictly, e-mail addresses. Such text must look like what it
// holds, so it may not carry characters a reader cannot see or that
// disturb the text around it. Refused:
//
//   - invalid UTF-8, and U+FFFD, which JSON decoding puts in place of
//     invalid bytes;
//   - control characters (C0, DEL, C1), except line feed, carriage return
//     and tab in multi-line fields;
//   - the line and paragraph separators U+2028 and U+2029;
//   - invisible formatting characters (Unicode category Cf): bidirectional
//     embeddings, overrides, isolates and marks, the zero-width space, word
//     joiner, invisible operators, byte order mark, soft hyphen, tag
//     characters, ... except the zero-width joiner U+200D and non-joiner
//     U+200C, which emoji sequences and Indic scripts (a Devanagari half
//     form, a Malayalam chillu, a Bengali ya-phala) need;
//   - more than MaxMarks combining marks (Mn, Me) on one character.
//
// Letters of every script, spaces (U+00A0 and U+3000 among them), spacing
// vowel signs, emoji and their variation selectors pass. Fields that must
// refuse more, such as e-mail addresses (an identifier: no joiners, no
// spaces), add their own checks on top of this classification.
package usertext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxMarks is the most non-spacing or enclosing combining marks allowed on
// one character. Real orthographies stack at most about five: two in
// decomposed Vietnamese (ệ), three on a Devanagari consonant (nukta, vowel
// sign, candrabindu), four or five in Tibetan stacks and Vedic accents;
// "Zalgo" text stacks dozens to run over the lines around it. Eight leaves
// room for every script while bounding how far a character can spread.
const MaxMarks = 8

// Messages of CheckLine and CheckLines, naming what is wrong.
const (
	MsgUTF8        = "must be valid UTF-8 text"
	MsgControlLine = "must be a single line without control characters"
	MsgControl     = "must not contain control characters other than line breaks and tabs"
	MsgSeparator   = "must not contain Unicode line or paragraph separators (U+2028, U+2029)"
	MsgInvisible   = "must not contain invisible formatting characters such as bidirectional overrides or zero-width spaces"
	MsgMarks       = "must not stack more than 8 combining marks on one character" // 8 is MaxMarks
)

// IsJoiner reports the zero-width joiner and non-joiner, the only invisible
// formatting characters user text may hold.
func IsJoiner(r rune) bool { return r == '\u200C' || r == '\u200D' }

// IsInvisible reports invisible formatting characters (Unicode Cf) other
// than the joiners.
func IsInvisible(r rune) bool { return unicode.Is(unicode.Cf, r) && !IsJoiner(r) }

// IsSeparator reports the line and paragraph separators U+2028 and U+2029.
func IsSeparator(r rune) bool { return unicode.In(r, unicode.Zl, unicode.Zp) }

// IsHidden reports every character single-line user text refuses: control
// characters, separators and invisible formatting characters.
func IsHidden(r rune) bool { return unicode.IsControl(r) || IsSeparator(r) || IsInvisible(r) }

// isMark reports combining marks that stack on their base (Mn, Me).
func isMark(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me) }

// stacks reports whether r leaves the count of marks on the current
// character unchanged: joiners and spacing marks (Mc) stay in the same
// cluster, so they neither count nor start a new character.
func stacks(r rune) bool { return IsJoiner(r) || unicode.Is(unicode.Mc, r) }

// CheckLine says what is wrong with s as single-line user text, "" when
// nothing: see the package comment for the rule.
func CheckLine(s string) string { return check(s, false) }

// CheckLines is CheckLine for multi-line text, which may also hold line
// feeds, carriage returns and tabs.
func CheckLines(s string) string { return check(s, true) }

func check(s string, multiline bool) string {
	if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
		return MsgUTF8
	}
	marks := 0
	for _, r := range s {
		switch {
		case multiline && (r == '\n' || r == '\r' || r == '\t'):
		case unicode.IsControl(r):
			if multiline {
				return MsgControl
			}
			return MsgControlLine
		case IsSeparator(r):
			return MsgSeparator
		case IsInvisible(r):
			return MsgInvisible
		case isMark(r):
			if marks++; marks > MaxMarks {
				return MsgMarks
			}
			continue
		case stacks(r):
			continue
		}
		marks = 0
	}
	return ""
}

// Strip returns s without what single-line user text refuses: invalid
// bytes, hidden characters (IsHidden) and the combining marks beyond
// MaxMarks on one character. It is for text that is cleaned rather than
// refused, such as a key name taken from a user agent.
func Strip(s string) string {
	s = strings.ToValidUTF8(s, "")
	var b strings.Builder
	b.Grow(len(s))
	marks := 0
	for _, r := range s {
		switch {
		case r == utf8.RuneError || IsHidden(r):
			continue
		case isMark(r):
			if marks++; marks > MaxMarks {
				continue
			}
		case stacks(r):
		default:
			marks = 0
		}
		b.WriteRune(r)
	}
	return b.String()
}
