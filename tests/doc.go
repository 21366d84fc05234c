// Package tests is Pinsight's black-box suite: architecture rules, and
// integration tests against real adapters. It holds no production code.
package tests
