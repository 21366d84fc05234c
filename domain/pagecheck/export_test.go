package pagecheck

// Exported for the external tests.
const (
	MaxValueRunes   = maxValueRunes
	MaxValueItems   = maxValueItems
	MaxValueText    = maxValueText
	MaxMessageRunes = maxMessageRunes
	Ellipsis        = ellipsis
)
