// Package httpapitest checks an HTTP API built with huma against hostile
// input, the way testing/fstest checks a file system: Hostile walks every
// operation the OpenAPI document lists and sends it hostile values in each
// parameter and top-level body property, and malformed bodies, requiring
// the error envelope with a status below 500 every time. HostilePage does
// the same for an HTML page outside the API, and HostileRoutes runs both
// over the whole Pinsight API for a given set of stores, so the memory and
// Postgres adapters are held to one test.
package httpapitest
