// Package memory implements the ports with in-memory stores: the embedded
// default storage, and the reference the Postgres adapter is checked against.
package memory
