// Package pagecheck holds the page checks and their catalogue: pure
// functions over a fetched page (webpage.Fetched) grouped by category, the
// advice for each failure, the rule that turns passed checks into a 0-100
// score and a good / decent / bad rating, and the follow-up requests the
// checks want fetched. It does no I/O: a ports.PageFetcher brings the page
// in.
package pagecheck
