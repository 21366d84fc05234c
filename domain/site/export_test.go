package site

// Exported for the external tests.
var (
	ValidHreflang = validHreflang
	ValidLangTag  = validLangTag
	IsLanguage    = isLanguage
	IsScript      = isScript
	IsRegion      = isRegion
)
