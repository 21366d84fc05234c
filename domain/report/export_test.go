package report

// Exported for the external tests.
const ShareTokenLen = shareTokenLen
