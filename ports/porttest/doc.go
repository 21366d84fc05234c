// Package porttest holds conformance suites for the ports, in the manner of
// testing/fstest: an adapter's tests call one function with a constructor
// and get the whole contract checked - TestAccountStore, TestReportStore
// (which creates the users its reports belong to through the account
// store it is given), TestPostalStore, TestRateLimiter, TestPageFetcher
// (against pages it serves on 127.0.0.1), TestBoundaryIndex,
// TestReviewStore, TestJobs (the queue of analyses and the report history)
// and TestWebhooks (the webhook store and its deliveries on the queue). The
// memory, SQLite, fetch and boundary adapters run them in plain unit tests;
// the Postgres and Redis adapters against real services (tests/).
package porttest
