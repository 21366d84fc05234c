// Package ports holds the interfaces Pinsight's core needs from the outside
// world: its driven ports. Each one is what a use case in app/... calls to
// reach something it does not own - a store of accounts (AccountStore),
// reports (ReportStore) or the postal directory (PostalStore), a quota
// counter (RateLimiter), a page fetcher (PageFetcher), PIN boundary
// polygons (BoundaryIndex) - and an adapter in adapters/... implements it
// (memory, sqlite, postgres, redis, fetch, boundary).
//
// Inbound (driving) adapters, such as the HTTP transport in
// adapters/httpapi or the command line in cmd/pinsight, are not ports: they
// call the use cases directly and have no interface here.
//
// Ports speak the domain's types (domain/..., geo) and its errors: not
// found, invalid input and the like are the domain's sentinels (kinds of
// domain/fault), and a backing service that cannot be reached is
// ErrUnavailable, which every transport answers as "try again" (HTTP 503
// with Retry-After).
//
// Every port has a conformance suite in ports/porttest (TestAccountStore,
// TestReportStore, TestPostalStore, TestRateLimiter (TestQuotaReturner and
// TestTurnTaker for its optional parts), TestPageFetcher,
// TestBoundaryIndex), which each of its adapters runs from its own tests;
// ADAPTERS.md at the repository root says how to write a new one.
package ports
