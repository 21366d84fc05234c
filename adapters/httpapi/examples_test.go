package httpapi_test

import (
	"encoding/json"
	"flag"
	"maps"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

var updateExamples = flag.Bool("update-examples", false, "record the OpenAPI response examples from the handlers (openapi_examples.json)")

// exampleFile is where the recorded examples are kept (embedded by the
// package).
const exampleFile = "openapi_examples.json"

// TestOpenAPIExamples calls the handlers on the test fixture, one request
// per operation it records, and fails when one does not answer 2xx or its
// recorded example is missing from the file; with -update-examples it
// rewrites the file from the answers. Every example the document carries
// must validate against its response's schema (huma's validator, the one
// checking requests; tools/openapilint checks them again in CI).
func TestOpenAPIExamples(t *testing.T) {
	routes, stores := fullRoutesAndStores()
	h := apitest.NewHandler(t, routes)
	recorded := map[string]json.RawMessage{}
	call := func(id, method, target, body string, headers ...string) apitest.Response {
		t.Helper()
		ct := ""
		if body != "" {
			ct = "application/json"
		}
		res := apitest.Do(t, h, method, target, ct, body, headers...)
		if res.Status < 200 || res.Status > 299 {
			t.Fatalf("%s: %s %s = %d %s", id, method, target, res.Status, res.Body)
		}
		recorded[id+" "+strconv.Itoa(res.Status)] = json.RawMessage(res.Body)
		return res
	}
	v1 := "/api/v1"
	call("healthz", "GET", "/healthz", "")
	call("readyz", "GET", "/readyz", "")
	call("readyzReads", "GET", "/readyz/reads", "")
	var pin struct {
		PostOffices []struct {
			ID int64 `json:"id"`
		} `json:"post_offices"`
	}
	call("pincode-lookup", "GET", v1+"/pincodes/400001", "").Decode(t, &pin)
	office := v1 + "/post-offices/" + apitest.Itoa(pin.PostOffices[0].ID)
	call("pincode-details", "GET", v1+"/pincodes/400001/details", "")
	call("pincode-villages", "GET", v1+"/pincodes/400001/villages?per_page=10", "")
	call("pincode-nearby", "GET", v1+"/pincodes/nearby?latitude=18.94&longitude=72.835&radius=5&limit=1", "")
	call("search-pincodes", "GET", v1+"/pincodes/search?q=patna&per_page=10", "")
	call("pincode-autocomplete", "GET", v1+"/pincodes/autocomplete?q=mumb&limit=1", "")
	call("pincode-batch", "POST", v1+"/pincodes/batch", `{"pincodes":["400001"]}`)
	call("pincode-validate", "POST", v1+"/pincodes/validate", `{"pincodes":["400001","12345"]}`)
	call("distance", "GET", v1+"/distance?from=400001&to=800001", "")
	call("list-states", "GET", v1+"/states?q=bihar", "")
	call("get-state", "GET", v1+"/states/bihar", "")
	call("state-districts", "GET", v1+"/states/bihar/districts?q=patna", "")
	district := "patna"
	call("get-district", "GET", v1+"/districts/"+district, "")
	call("district-pincodes", "GET", v1+"/districts/"+district+"/pincodes?per_page=10", "")
	call("search-villages", "GET", v1+"/villages/search?q=a&per_page=10", "")
	call("digipin-encode", "POST", v1+"/digipin/encode", `{"latitude":28.6328,"longitude":77.2197}`)
	call("digipin-decode", "POST", v1+"/digipin/decode", `{"digipin":"39J-49L-L8T4"}`)
	call("digipin-encode-batch", "POST", v1+"/digipin/encode/batch", `{"items":[{"latitude":28.6328,"longitude":77.2197}]}`)
	call("digipin-decode-batch", "POST", v1+"/digipin/decode/batch", `{"items":["39J-49L-L8T4","39J"]}`)
	call("digipin-validate", "GET", v1+"/digipin/validate?digipin=39J-49L-L8T4", "")
	call("digipin-info", "GET", v1+"/digipin/info", "")
	call("digipin-nearest", "GET", v1+"/digipin/nearest?point=18.94,72.835&limit=1", "")
	call("digipin-neighbours", "GET", v1+"/digipin/39J-49L-L8T4/neighbours", "")
	call("digipin-offices", "GET", v1+"/digipin/4FK/offices?per_page=10", "")
	call("dataset", "GET", v1+"/dataset", "")
	call("dataset-changes", "GET", v1+"/dataset/changes?per_page=10", "")
	call("get-post-office", "GET", office, "")

	creds := `{"email":"asha@example.com","password":"correct horse battery"}`
	call("register", "POST", v1+"/register", creds)
	var tok struct {
		Token string `json:"token"`
		Key   struct {
			ID int64 `json:"id"`
		} `json:"key"`
	}
	call("login", "POST", v1+"/login", creds).Decode(t, &tok)
	auth := apitest.Bearer(tok.Token)
	call("get-account", "GET", v1+"/account", "", auth...)
	call("list-api-keys", "GET", v1+"/account/keys", "", auth...)
	call("put-review", "PUT", office+"/review", `{"rating":4,"title":"Quick counter","text":"Short queue at noon."}`, auth...)
	call("put-review", "PUT", office+"/review", `{"rating":5,"title":"Quick counter","text":"Short queue at noon."}`, auth...) // replaced: 200
	call("get-my-review", "GET", office+"/review", "", auth...)
	call("list-office-reviews", "GET", office+"/reviews", "")
	call("list-my-reviews", "GET", v1+"/account/reviews", "", auth...)
	call("like-office", "PUT", office+"/like", "", auth...)
	call("unlike-office", "DELETE", office+"/like", "", auth...)
	call("delete-review", "DELETE", office+"/review", "", auth...)

	var rep struct {
		ID int64 `json:"id"`
	}
	call("create-report", "POST", v1+"/reports", `{"url":"https://example.com/"}`, auth...).Decode(t, &rep)
	report := apitest.IDPath(rep.ID)
	call("get-report", "GET", report, "", auth...)
	call("list-reports", "GET", v1+"/reports?per_page=10", "", auth...)
	call("update-report", "PUT", report, `{"privacy":0}`, auth...)
	call("get-report-history", "GET", report+"/history", "", auth...)
	call("list-projects", "GET", v1+"/projects", "", auth...)
	// Batches need analyses as jobs: the same stores, with the queue
	// (never started: the reports stay pending, as a batch answers them).
	queued := routes
	queued.Reports = reports.New(stores.Reports, apitest.NewFakeAnalyser(), apitest.Passwords, reports.WithJobs(stores.Jobs, ports.JobSettings{}, nil))
	hq := apitest.NewHandler(t, queued)
	res := apitest.Do(t, hq, "POST", v1+"/reports/batch", "application/json", `{"urls":["https://example.com/","https://example.com/about"]}`, auth...)
	if res.Status != http.StatusAccepted {
		t.Fatalf("create-report-batch = %d %s", res.Status, res.Body)
	}
	recorded["create-report-batch 202"] = json.RawMessage(res.Body)
	apitest.Do(t, h, "POST", v1+"/reports", "application/json", `{"url":"https://example.org/"}`, auth...)
	call("delete-report", "DELETE", report, "", auth...)
	call("delete-project", "DELETE", v1+"/projects/example.org", "", auth...)

	var hook struct {
		ID int64 `json:"id"`
	}
	call("create-webhook", "POST", v1+"/account/webhooks", `{"url":"https://hooks.example.com/pinsight","secret":"0123456789abcdef0123"}`, auth...).Decode(t, &hook)
	webhook := v1 + "/account/webhooks/" + apitest.Itoa(hook.ID)
	call("list-webhooks", "GET", v1+"/account/webhooks", "", auth...)
	call("list-webhook-deliveries", "GET", webhook+"/deliveries", "", auth...)
	call("delete-webhook", "DELETE", webhook, "", auth...)

	var cr struct {
		ID int64 `json:"id"`
	}
	call("create-crawl", "POST", v1+"/crawls", `{"url":"https://example.com/","max_pages":50,"schedule":"weekly"}`, auth...).Decode(t, &cr)
	crawlPath := v1 + "/crawls/" + apitest.Itoa(cr.ID)
	call("get-crawl", "GET", crawlPath, "", auth...)
	call("list-crawls", "GET", v1+"/crawls", "", auth...)
	call("update-crawl", "PATCH", crawlPath, `{"schedule":"daily"}`, auth...)
	call("list-crawl-pages", "GET", crawlPath+"/pages", "", auth...)
	call("list-crawl-issues", "GET", crawlPath+"/issues", "", auth...)
	call("cancel-crawl", "POST", crawlPath+"/cancel", "", auth...)
	call("delete-crawl", "DELETE", crawlPath, "", auth...)

	// Two finished crawls of one site, a day apart (seeded: the fixture
	// runs no crawl), for the crawl, page, filter and diff examples.
	var me struct {
		ID int64 `json:"id"`
	}
	apitest.Do(t, h, "GET", v1+"/account", "", "", auth...).Decode(t, &me)
	now := time.Now().UTC().Truncate(time.Second)
	broken := crawl.Issue{Type: crawl.BrokenLink, URL: "https://example.com/old-offers", Detail: "404 Not Found",
		Related: []string{"https://example.com/"}, RelatedTotal: 1}
	seedExampleCrawl(t, stores.Crawls, me.ID, now.Add(-24*time.Hour), []crawl.Issue{broken,
		{Type: crawl.BrokenLink, URL: "https://example.com/summer-sale", Detail: "404 Not Found", Related: []string{"https://example.com/"}, RelatedTotal: 1}})
	finished := v1 + "/crawls/" + apitest.Itoa(seedExampleCrawl(t, stores.Crawls, me.ID, now, []crawl.Issue{broken,
		{Type: crawl.RobotsTxtInvalid, URL: "https://example.com/robots.txt", Line: 3, LineText: "Disalow: /cart", Detail: "Unknown directive \"Disalow\""}}))
	call("get-crawl", "GET", finished, "", auth...)
	var listed struct {
		Pages []struct {
			ID            int64    `json:"id"`
			FailingChecks []string `json:"failing_checks"`
		} `json:"pages"`
	}
	call("list-crawl-pages", "GET", finished+"/pages", "", auth...).Decode(t, &listed)
	if len(listed.Pages) < 2 || len(listed.Pages[1].FailingChecks) == 0 {
		t.Fatalf("the seeded crawl's pages = %+v, want /about failing checks", listed.Pages)
	}
	call("list-crawl-pages", "GET", finished+"/pages?check="+listed.Pages[1].FailingChecks[0], "", auth...)
	call("get-crawl-page", "GET", finished+"/pages/"+apitest.Itoa(listed.Pages[1].ID), "", auth...)
	call("list-crawl-issues", "GET", finished+"/issues", "", auth...)
	call("diff-crawl", "GET", finished+"/diff", "", auth...)

	call("rotate-api-key", "POST", v1+"/account/api-key", `{"name":"laptop"}`, auth...).Decode(t, &tok)
	auth = apitest.Bearer(tok.Token)
	var keys struct {
		Keys []struct {
			ID int64 `json:"id"`
		} `json:"keys"`
	}
	call("login", "POST", v1+"/login", creds)
	apitest.Do(t, h, "GET", v1+"/account/keys", "", "", auth...).Decode(t, &keys)
	call("revoke-api-key", "DELETE", v1+"/account/keys/"+apitest.Itoa(keys.Keys[len(keys.Keys)-1].ID), "", auth...)

	if *updateExamples {
		redactKeys(recorded)
		b, err := json.MarshalIndent(recorded, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(exampleFile, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	var committed map[string]json.RawMessage
	if err := json.Unmarshal(raw, &committed); err != nil {
		t.Fatal(err)
	}
	for key := range recorded {
		if _, found := committed[key]; !found {
			t.Errorf("%s: no example for %q: run go test ./adapters/httpapi -run TestOpenAPIExamples -update-examples", exampleFile, key)
		}
	}
	validateExamples(t)
}

// apiKey is an API key as the server mints it (psk_ and 43 characters of
// unpadded base64url), or its prefix as the key listings show it (its
// first 12 characters, quoted).
var apiKey = regexp.MustCompile(`psk_[A-Za-z0-9_-]{43}|"psk_[A-Za-z0-9_-]{8}"`)

// redactKeys replaces the keys the fixture minted, and their prefixes, by
// fixed ones of the same shape: the document shows no key that worked,
// and recording again changes nothing.
func redactKeys(recorded map[string]json.RawMessage) {
	fakes := map[string]string{} // a key's first 12 characters: its fake's
	var pairs []string
	for _, k := range slices.Sorted(maps.Keys(recorded)) {
		for _, m := range apiKey.FindAllString(string(recorded[k]), -1) {
			key := strings.Trim(m, `"`)
			fake, seen := fakes[key[:12]]
			if !seen {
				n := strconv.Itoa(len(fakes) + 1)
				fake = "psk_EXAMPLE" + n + strings.Repeat("x", 43-len("EXAMPLE")-len(n))
				fakes[key[:12]] = fake
			}
			if len(key) > 12 {
				pairs = append(pairs, key, fake)
			}
		}
	}
	for prefix, fake := range fakes {
		pairs = append(pairs, `"`+prefix+`"`, `"`+fake[:12]+`"`)
	}
	r := strings.NewReplacer(pairs...)
	for k, v := range recorded {
		recorded[k] = json.RawMessage(r.Replace(string(v)))
	}
}

// validateExamples checks every response example of the registered API
// against its schema.
func validateExamples(t *testing.T) {
	api := httpapi.NewAPI(http.NewServeMux())
	if err := httpapi.Register(api, fullRoutes()); err != nil {
		t.Fatal(err)
	}
	registry, checked := api.OpenAPI().Components.Schemas, 0
	for path, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Patch} {
			if op == nil {
				continue
			}
			for status, r := range op.Responses {
				for ct, mt := range r.Content {
					if mt.Example == nil || mt.Schema == nil {
						continue
					}
					// The example as a client decodes it.
					b, err := json.Marshal(mt.Example)
					if err != nil {
						t.Fatal(err)
					}
					var v any
					if err := json.Unmarshal(b, &v); err != nil {
						t.Fatal(err)
					}
					res := &huma.ValidateResult{}
					huma.Validate(registry, mt.Schema, huma.NewPathBuffer([]byte{}, 0), huma.ModeReadFromServer, v, res)
					for _, e := range res.Errors {
						t.Errorf("%s %s %s %s: example: %v", op.Method, path, status, ct, e)
					}
					checked++
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no example checked")
	}
}
