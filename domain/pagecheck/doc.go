// Package pagecheck holds the page checks and their catalogue: pure
// functions over a fetched page (webpage.Fetched) grouped by category, the
// advice for each failure, the rule that turns passed checks into a 0-100
// score and a good / decent / bad rating, and the follow-up requests the
// checks want fetched. It does no I/O: a ports.PageFetcher brings the page
// in.
//
// Rendered audits (shell.go, rendered*.go): NeedsRendering is the rule
// that tells an application shell from a server-rendered page;
// AnalyseRendered runs the checks over the DOM a browser built
// (webpage.Rendered), adds the rendered-only checks (Catalogue marks them
// RenderedOnly) and fills Analysis.Rendering: raw versus rendered, what
// the page loaded, its graded lab metrics and, for crawls, its Issues.
package pagecheck
