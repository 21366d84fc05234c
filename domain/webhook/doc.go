// Package webhook holds users' webhooks, the events they receive and their
// deliveries, and the signature that lets a receiver verify a delivery.
// It does no I/O.
package webhook
