package sqlite_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// TestCrawlAuditBytesMigration: the audits stored as JSON text (the JSON
// object; a JSON string of base64 of S2) before the audit column held
// bytes read the same after it, beside audits stored as bytes; rolled
// back, the JSON ones are JSON text again and the others are gone.
func TestCrawlAuditBytesMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	migrateUntil(t, path, "20261126500001")
	db, err := sqlite.Open(ctx, sqlite.Config{URL: "sqlite:" + path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	withUsers(t, db, 1)
	store := sqlite.NewCrawlStore(db)
	settings, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	// The crawl's row as the schema of then has it (the store writes
	// columns added since).
	st, _ := json.Marshal(settings)
	const zero = "0001-01-01T00:00:00.000000Z"
	res, err := rawDB(t, path).Exec(`INSERT INTO crawls (user_id, token, site, site_key, settings, headers, password_hash, status, failure,
		cancel_requested, discovered, crawled, failed, blocked, score, rating, summary, created_at, started_at, finished_at)
		VALUES (1, 'token', 'example.com', 'example.com', ?, 'null', '', 'running', '', 0, 0, 0, 0, 0, 0, '', '{}', ?, ?, ?)`,
		string(st), time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"), zero, zero)
	if err != nil {
		t.Fatal(err)
	}
	id, err := res.LastInsertId()
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
	raw := rawDB(t, path)
	// The pages' rows as the schema of then has them (today's store
	// writes columns added since).
	for _, p := range []string{"object", "string"} {
		u := "https://example.com/" + p
		if _, err := raw.Exec(`INSERT INTO crawl_urls (crawl_id, url, depth, in_sitemap, source, attempts, lease_until, recorded,
			final_url, status_code, failure, redirects, redirect_loop, title, description, canonical, noindex, fingerprint, hreflang,
			blocked, indexable, outlinks, inlinks, score, rating, response_us, bytes, fetched_at, results)
			VALUES (?, ?, 0, 0, 'start', 0, ?, 1, ?, 200, '', '[]', 0, '', '', '', 0, 0, '[]', 0, 1, 0, 0, 0, '', 0, 0, ?, '{}')`,
			c.ID, u, zero, u, zero); err != nil {
			t.Fatal(err)
		}
	}
	plain, _ := json.Marshal(audit)
	for path, stored := range map[string]string{"object": string(plain), "string": strconv.Quote(base64.StdEncoding.EncodeToString(s2.Encode(nil, plain)))} {
		if _, err := raw.Exec(`INSERT INTO crawl_audits (url_id, results) SELECT id, ? FROM crawl_urls WHERE url = ?`, stored, "https://example.com/"+path); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sqlite.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := store.RecordPages(ctx, c.ID, nil, []ports.FetchedPage{page("bytes", audit)}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	rows, err := raw.Query(`SELECT id, url FROM crawl_urls`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var u string
		if err := rows.Scan(&id, &u); err != nil {
			t.Fatal(err)
		}
		ids[u[len("https://example.com/"):]] = id
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	read := func(paths ...string) {
		t.Helper()
		for _, path := range paths {
			p, err := store.Page(ctx, 1, c.ID, ids[path])
			if err != nil || !reflect.DeepEqual(p.Results, audit) {
				t.Errorf("page %s's audit = %v, %v; want the audit stored", path, p.Results, err)
			}
		}
	}
	read("object", "string", "bytes")
	var blobs int
	if err := raw.QueryRow(`SELECT count(*) FROM crawl_audits WHERE typeof(results) = 'blob'`).Scan(&blobs); err != nil || blobs != 3 {
		t.Errorf("%d audits are bytes (%v), want 3", blobs, err)
	}
	if names, err := sqlite.Rollback(ctx, db); err != nil || !slices.Contains(names, "20261126500001") {
		t.Fatalf("rollback = %v, %v; want the migration to bytes among those rolled back", names, err)
	}
	// Today's store reads columns the old schema lacks: the rolled-back
	// audits are read as the store of then read them.
	var back string
	if err := raw.QueryRow(`SELECT results FROM crawl_audits WHERE url_id = ?`, ids["object"]).Scan(&back); err != nil || back != string(plain) {
		t.Errorf("after the rollback the object audit is %q (%v), want %q", back, err, plain)
	}
	var texts int
	if err := raw.QueryRow(`SELECT count(*) FROM crawl_audits WHERE typeof(results) = 'text' AND json_valid(results)`).Scan(&texts); err != nil || texts != 2 {
		t.Errorf("after the rollback %d audits are JSON text (%v), want the 2 stored as JSON", texts, err)
	}
}
