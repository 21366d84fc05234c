package webhook

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
)

// EventCrawlFinished is the event sent when a crawl ends (finished,
// cancelled or failed).
const EventCrawlFinished = "crawl.finished"

// Events are the events a webhook may subscribe to, in the order the API
// lists them.
var Events = []string{EventReportFinished, EventCrawlFinished}

// Known reports whether event is one of Events.
func Known(event string) bool { return slices.Contains(Events, event) }

// EventCrawlPages is a crawl's progress in a crawl.finished event.
type EventCrawlPages struct {
	Discovered int `json:"discovered"`
	Crawled    int `json:"crawled"`
	Failed     int `json:"failed"`
	Blocked    int `json:"blocked"`
}

// EventCrawlIssue is how many issues of one type a crawl found.
type EventCrawlIssue struct {
	Type     string `json:"type"`
	Severity string `json:"severity"`
	Count    int    `json:"count"`
}

// EventCrawl is the crawl in a crawl.finished event.
type EventCrawl struct {
	ID         int64             `json:"id"`
	URL        string            `json:"url"` // the start URL
	Site       string            `json:"site"`
	Status     string            `json:"status"`
	Score      int               `json:"score"`
	Result     string            `json:"result"` // the rating; "" when no page was audited
	Failure    string            `json:"failure,omitempty"`
	Pages      EventCrawlPages   `json:"pages"`
	Issues     []EventCrawlIssue `json:"issues"`
	CreatedAt  time.Time         `json:"created_at"`
	FinishedAt time.Time         `json:"finished_at"`
}

// CrawlEvent is the JSON body of a crawl.finished delivery.
type CrawlEvent struct {
	Event  string     `json:"event"`
	Crawl  EventCrawl `json:"crawl"`
	SentAt time.Time  `json:"sent_at"`
}

// CrawlFinished returns the deliveries of the crawl.finished event of c,
// made at now: one pending delivery for each of hooks that belongs to c's
// user and wants the event, all with the same body. None when no hook
// wants it. Whether c just ended is the caller's to decide. The
// deliveries' CrawlID is c's; their ReportID 0.
func CrawlFinished(c crawl.Crawl, hooks []Webhook, now time.Time) ([]Delivery, error) {
	now = now.UTC()
	var ds []Delivery
	var body []byte
	for _, w := range hooks {
		if w.UserID != c.UserID || !w.Wants(EventCrawlFinished) {
			continue
		}
		if body == nil {
			issues := make([]EventCrawlIssue, 0, len(c.Summary.Issues))
			for _, tc := range c.Summary.Issues {
				issues = append(issues, EventCrawlIssue{Type: string(tc.Type), Severity: string(tc.Severity), Count: tc.Count})
			}
			p := c.Progress
			var err error
			body, err = json.Marshal(CrawlEvent{Event: EventCrawlFinished, SentAt: now, Crawl: EventCrawl{
				ID: c.ID, URL: c.Settings.URL, Site: c.Site, Status: string(c.Status), Score: c.Score, Result: string(c.Rating),
				Failure: c.Failure, Pages: EventCrawlPages{Discovered: p.Discovered, Crawled: p.Crawled, Failed: p.Failed, Blocked: p.Blocked},
				Issues: issues, CreatedAt: c.CreatedAt.UTC(), FinishedAt: c.FinishedAt.UTC()}})
			if err != nil {
				return nil, err
			}
		}
		ds = append(ds, Delivery{WebhookID: w.ID, UserID: c.UserID, CrawlID: c.ID, Event: EventCrawlFinished,
			Body: body, Status: DeliveryPending, CreatedAt: now, UpdatedAt: now})
	}
	return ds, nil
}
