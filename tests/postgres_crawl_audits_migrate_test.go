package tests

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// TestPostgresCrawlAuditBytesMigration: the audits stored as jsonb (the
// JSON object; a JSON string of base64 of S2) before the audit column
// held bytes read the same after it, beside audits stored as bytes;
// rolled back, the JSON ones are jsonb again and the others are gone.
func TestPostgresCrawlAuditBytesMigration(t *testing.T) {
	ctx := context.Background()
	db, url := newEmptyDatabase(t)
	migratePostgresUntil(t, db, "20261126500001")
	u, err := postgres.NewAccountStore(db).CreateUser(ctx, account.User{Email: "a@example.com", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	store := postgres.NewCrawlStore(db)
	settings, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	// The crawl's row as the schema of then has it (the store writes
	// columns added since).
	st, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	err = db.QueryRowContext(ctx, `INSERT INTO crawls (user_id, token, site, site_key, settings, headers, password_hash, status, failure,
		cancel_requested, discovered, crawled, failed, blocked, score, rating, summary, created_at, started_at, finished_at)
		VALUES (?, 'token', 'example.com', 'example.com', ?::jsonb, 'null', '', 'running', '', FALSE, 0, 0, 0, 0, 0, '', '{}', now(),
		'0001-01-01 00:00:00+00', '0001-01-01 00:00:00+00') RETURNING id`, u.ID, string(st)).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	c := crawl.Crawl{ID: id}
	page := func(path string, res pagecheck.Results) ports.FetchedPage {
		u := "https://example.com/" + path
		return ports.FetchedPage{Page: crawl.Page{URL: u, FinalURL: u, Status: 200}, Results: res}
	}
	audit := pagecheck.Results{pagecheck.SEO: {{ID: "title", Title: "Title", Category: pagecheck.SEO, Importance: pagecheck.High,
		Passed: true, Value: "Hello", Message: "The title is fine."}}}
	// The pages' rows as the schema of then has them (today's store
	// writes columns added since).
	for _, p := range []string{"object", "string"} {
		u := "https://example.com/" + p
		if _, err := db.ExecContext(ctx, `INSERT INTO crawl_urls (crawl_id, url, depth, in_sitemap, source, attempts, lease_until, recorded,
			final_url, status_code, failure, redirects, redirect_loop, title, description, canonical, noindex, fingerprint, hreflang,
			blocked, indexable, outlinks, inlinks, score, rating, response_us, bytes, fetched_at, results)
			VALUES (?, ?, 0, FALSE, 'start', 0, '0001-01-01 00:00:00+00', TRUE, ?, 200, '', '[]', FALSE, '', '', '', FALSE, 0, '[]',
			FALSE, TRUE, 0, 0, 0, '', 0, 0, '0001-01-01 00:00:00+00', '{}')`, c.ID, u, u); err != nil {
			t.Fatal(err)
		}
	}
	plain, _ := json.Marshal(audit)
	for path, stored := range map[string]string{"object": string(plain), "string": strconv.Quote(base64.StdEncoding.EncodeToString(s2.Encode(nil, plain)))} {
		if _, err := db.ExecContext(ctx, `INSERT INTO crawl_audits (url_id, results) SELECT id, ?::jsonb FROM crawl_urls WHERE url = ?`, stored, "https://example.com/"+path); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := postgres.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := store.RecordPages(ctx, c.ID, nil, []ports.FetchedPage{page("bytes", audit)}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, path := range []string{"object", "string", "bytes"} {
		var id int64
		if err := db.QueryRowContext(ctx, `SELECT id FROM crawl_urls WHERE url = ?`, "https://example.com/"+path).Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[path] = id
	}
	read := func(store ports.CrawlStore, paths ...string) {
		t.Helper()
		for _, path := range paths {
			p, err := store.Page(ctx, u.ID, c.ID, ids[path])
			if err != nil || !reflect.DeepEqual(p.Results, audit) {
				t.Errorf("page %s's audit = %v, %v; want the audit stored", path, p.Results, err)
			}
		}
	}
	read(store, "object", "string", "bytes")
	if names, err := postgres.Rollback(ctx, db); err != nil || !slices.Contains(names, "20261126500001") {
		t.Fatalf("rollback = %v, %v; want the migration to bytes among those rolled back", names, err)
	}
	// New connections, as the code before would open: the pool's prepared
	// statements read bytes.
	again, err := postgres.Open(ctx, postgres.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	// Today's store reads columns the old schema lacks: the rolled-back
	// audits are read as JSON, as the store of then read them.
	var back string
	if err := again.QueryRowContext(ctx, `SELECT results::text FROM crawl_audits WHERE url_id = ?`, ids["object"]).Scan(&back); err != nil || !strings.Contains(back, "The title is fine.") {
		t.Errorf("after the rollback the object audit is %q (%v), want the JSON stored", back, err)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM crawl_audits`).Scan(&n); err != nil || n != 2 {
		t.Errorf("after the rollback %d audits (%v), want the 2 stored as JSON", n, err)
	}
}
