// Package porttest holds conformance suites for the ports, in the manner of
// testing/fstest: an adapter's tests call one function with a constructor
// and get the whole contract checked. The memory adapter runs them in plain
// unit tests; the Postgres adapter runs them against a real database.
package porttest
