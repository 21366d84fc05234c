package pagecheck

// Exported for the external tests.
const (
	MaxValueRunes   = maxValueRunes
	MaxValueItems   = maxValueItems
	MaxValueText    = maxValueText
	MaxMessageRunes = maxMessageRunes
	Ellipsis        = ellipsis
)

// BoundValue bounds v as a check's value: the value, the characters left
// of maxValueText and the entries left out.
func BoundValue(v any) (any, int, int) {
	b := bounder{left: maxValueText}
	v = b.value(v)
	return v, b.left, b.omitted
}

// BoundValueCopied is BoundValue without its shortcut for a value that
// fits: copied entry by entry.
func BoundValueCopied(v any) (any, int, int) {
	b := bounder{left: maxValueText}
	v, _ = b.item(v)
	return v, b.left, b.omitted
}

// Text of an element, with and without the shortcut for a sole text
// already collapsed.
var (
	TextOf       = textOf
	JoinedText   = joinedText
	TextPrefix   = textPrefix
	WalkedPrefix = walkedPrefix
)

// Pieces of the checks that read text without copying it.
var (
	SqueezedPrefix = squeezedPrefix
	Keywords       = keywords
	InText         = inText
)
