package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/webhook"
)

// TestCrawlDeliveryNamesTheCrawl: a crawl.finished delivery lists its
// crawl_id and no report_id.
func TestCrawlDeliveryNamesTheCrawl(t *testing.T) {
	reports := memory.NewReportStore()
	h := apitest.NewHandler(t, queuedCrawlRoutes(reports))
	key := apitest.Bearer(apitest.Login(t, h, "hooks@example.com"))
	w, err := reports.CreateWebhook(context.Background(), webhook.Webhook{UserID: 1, URL: "https://hooks.example/in",
		Secret: strings.Repeat("s", 32), Events: []string{webhook.EventCrawlFinished}, CreatedAt: time.Now()}, 5)
	if err != nil {
		t.Fatal(err)
	}
	var c wire.CrawlItem
	apitest.Do(t, h, http.MethodPost, "/api/v1/crawls", apitest.JSONType, `{"url":"https://example.com/"}`, key...).Decode(t, &c)
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/crawls/"+apitest.Itoa(c.ID)+"/cancel", "", "", key...); res.Status != http.StatusOK {
		t.Fatalf("cancel = %d %s", res.Status, res.Message)
	}
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/account/webhooks/"+apitest.Itoa(w.ID)+"/deliveries", "", "", key...)
	var out struct {
		Deliveries []map[string]any `json:"deliveries"`
	}
	res.Decode(t, &out)
	if res.Status != http.StatusOK || len(out.Deliveries) != 1 {
		t.Fatalf("deliveries = %d %s", res.Status, res.Data)
	}
	d := out.Deliveries[0]
	if _, has := d["report_id"]; has || d["crawl_id"] != float64(c.ID) || d["event"] != webhook.EventCrawlFinished {
		t.Fatalf("delivery = %v, want crawl_id %d and no report_id", d, c.ID)
	}
}
