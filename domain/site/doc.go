// Package site holds the site-analysis domain: reports, projects, privacy,
// the page checks (pure functions over a fetched page) and the rule that
// turns passed checks into a 0-100 score and a good / decent / bad rating.
// It does no I/O: a ports.PageFetcher brings the page in.
package site
