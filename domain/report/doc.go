// Package report holds site-analysis reports and their lifecycle: the
// report a user keeps of one analysed URL (privacy, share token, status,
// schedule), the projects that group reports by host, list queries over
// both, the history runs of scheduled analyses, idempotent creation
// requests, and the validation of report input. It does no I/O.
package report
