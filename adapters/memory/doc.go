// Package memory implements the ports with in-memory stores: the throwaway
// storage (memory:), the postal directory of memory: and sqlite: storage, and
// the reference the database adapters are checked against.
package memory
