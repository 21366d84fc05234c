// Package tests is Pinsight's black-box suite: integration tests against
// real adapters (Postgres, Redis, images, browsers) on testcontainers. The
// light checks that need no containers (architecture rules, the library's
// acceptance test, the documentation checks) are in tests/arch. It holds
// no production code.
package tests
