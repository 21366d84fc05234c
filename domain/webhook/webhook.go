package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
)

// EventReportFinished is the event sent when a report's analysis finishes
// (generated or failed).
const EventReportFinished = "report.finished"

// MinSecret is the shortest secret a webhook may have.
const MinSecret = 16

// MaxAttempts caps the attempts of one delivery.
const MaxAttempts = 5

// ErrLimit is returned when a user who already has as many webhooks as
// allowed creates another.
var ErrLimit = fault.New(fault.Invalid, "webhook: too many webhooks for one user")

// Timeout bounds one attempt of a delivery: a receiver is expected to
// acknowledge at once and work afterwards, so a slow one holds a delivery
// worker briefly.
const Timeout = 5 * time.Second

// Webhook is a user's endpoint that receives signed events.
type Webhook struct {
	ID        int64
	UserID    int64
	URL       string
	Secret    string // shown once, on creation
	Events    []string
	CreatedAt time.Time
}

// SecretPrefix is what is shown of the secret after its creation.
func (w Webhook) SecretPrefix() string {
	return w.Secret[:min(4, len(w.Secret))] + "…"
}

// Wants reports whether w subscribes to event.
func (w Webhook) Wants(event string) bool {
	for _, e := range w.Events {
		if e == event {
			return true
		}
	}
	return false
}

// DeliveryStatus is where a delivery stands.
type DeliveryStatus string

// Delivery statuses.
const (
	DeliveryPending   DeliveryStatus = "pending"
	DeliveryDelivered DeliveryStatus = "delivered"
	DeliveryFailed    DeliveryStatus = "failed"
)

// Delivery is one event sent (or to send) to one webhook.
type Delivery struct {
	ID             int64
	WebhookID      int64
	UserID         int64
	ReportID       int64 // the report of a report.finished event; 0 otherwise
	CrawlID        int64 // the crawl of a crawl.finished event; 0 otherwise
	Event          string
	Body           []byte // the JSON event, as sent
	Status         DeliveryStatus
	Attempts       int
	LastError      string
	ResponseStatus int // of the last attempt that got an answer (0: none)
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Message is one attempt of a delivery as its receiver gets it.
type Message struct {
	Event      string // the event's name, e.g. EventReportFinished
	DeliveryID int64  // the same on every attempt of one delivery
	Signature  string // Signature of Body at the attempt's time
	Body       []byte // the JSON event
}

// Signature is the signature of body sent at t, which receivers check:
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by secret>".
func Signature(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// VerifySignature checks signature header (as Signature writes it) against
// body and secret, and that its time lies within tolerance of now (replays
// are refused), as a receiver does.
func VerifySignature(secret, header string, body []byte, now time.Time, tolerance time.Duration) bool {
	var ts, v1 string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			v1 = v
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || v1 == "" {
		return false
	}
	at := time.Unix(unix, 0)
	if d := now.Sub(at); d > tolerance || d < -tolerance {
		return false
	}
	want := Signature(secret, at, body)
	return hmac.Equal([]byte(want), []byte("t="+ts+",v1="+v1))
}
