package httpapi_test

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/webhooks"
	"github.com/pinsight/pinsight/ports"
)

// publicResolver answers one public address for hooks.example.
type publicResolver struct{}

func (publicResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host == "hooks.example" {
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestWebhookCreateTakesForms: POST /account/webhooks takes an HTML form
// body as it takes JSON (events repeated), and a refused port or address
// is 422 on url naming the serve flag that allows it, as a report's
// refusal does.
func TestWebhookCreateTakesForms(t *testing.T) {
	reports := memory.NewReportStore()
	routes := queuedCrawlRoutes(reports)
	poster, err := fetch.NewPoster(fetch.Config{Resolver: publicResolver{}})
	if err != nil {
		t.Fatal(err)
	}
	routes.Webhooks = webhooks.New(reports, memory.NewJobs(reports, ports.JobSettings{}), poster, nil)
	h := apitest.NewHandler(t, routes)
	key := apitest.Bearer(apitest.Login(t, h, "form-hooks@example.com"))

	res := apitest.Do(t, h, http.MethodPost, "/api/v1/account/webhooks", apitest.FormType,
		"url=https%3A%2F%2Fhooks.example%2Fin&secret=0123456789abcdef0123&events=crawl.finished&events=report.finished", key...)
	var w struct {
		URL    string   `json:"url"`
		Events []string `json:"events"`
		Secret string   `json:"secret"`
	}
	res.Decode(t, &w)
	if res.Status != http.StatusCreated || w.URL != "https://hooks.example/in" || strings.Join(w.Events, ",") != "crawl.finished,report.finished" ||
		w.Secret != "0123456789abcdef0123" {
		t.Fatalf("form create = %d %s %+v", res.Status, res.Message, w)
	}

	for url, want := range map[string]string{
		"http://hooks.example:8080/in": "--allow-port 8080 or --allow-target hooks.example:8080",
		"http://127.0.0.1:9000/in":     "--allow-target 127.0.0.1:9000",
		"http://10.0.0.1/in":           "--allow-target 10.0.0.1:80",
	} {
		for _, body := range []struct{ ctype, text string }{
			{apitest.JSONType, `{"url":"` + url + `","secret":"0123456789abcdef0123"}`},
			{apitest.FormType, "url=" + url + "&secret=0123456789abcdef0123"},
		} {
			res := apitest.Do(t, h, http.MethodPost, "/api/v1/account/webhooks", body.ctype, body.text, key...)
			if res.Status != http.StatusUnprocessableEntity || len(res.Errors["url"]) != 1 || !strings.Contains(res.Errors["url"][0], want) {
				t.Errorf("%s %s = %d %v, want 422 on url naming %q", body.ctype, url, res.Status, res.Errors, want)
			}
		}
	}
}
