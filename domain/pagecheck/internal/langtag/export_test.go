package langtag

// Exported for the external tests.
var (
	IsLanguage = isLanguage
	IsScript   = isScript
	IsRegion   = isRegion
)
