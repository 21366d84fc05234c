package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports/porttest"
)

// propagationPatience bounds the waits for a change made through one
// instance (a revoked key, a re-import) to reach the other: far above the
// second or so it takes, so a loaded machine does not fail the test.
const propagationPatience = 2 * time.Minute

// TestMultiInstance runs two `pinsight serve` processes, built from this
// tree, on one fresh Postgres and one Redis, as a fleet behind a load
// balancer would, and proves what makes them one service:
//   - a fresh fleet on an empty database gets ready (one instance imports
//     the embedded snapshot under the import lock, both load it);
//   - the public quota holds across both: the sum of their answers, not
//     twice it;
//   - a key revoked through one is refused by the other (within about a
//     second, logged; bounded by propagationPatience);
//   - after a re-import both serve the new release, with a new ETag (within
//     seconds, logged; bounded by propagationPatience);
//   - stopping one (SIGTERM) while it analyses loses no confirmed report.
func TestMultiInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers on Postgres and Redis (-short)")
	}
	skipWithoutDocker(t)
	db, dbURL := newEmptyDatabase(t)
	_, redisURL := startRedis(t, "")
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		time.Sleep(300 * time.Millisecond) // analyses in flight when an instance stops
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><head><title>A fleet page</title></head><body><h1>Fleet</h1></body></html>`)
	}))
	defer page.Close()
	target, _ := url.Parse(page.URL)

	bin := buildPinsight(t)
	const quota = 20
	var fleet [2]*instance
	for i := range fleet {
		fleet[i] = startInstance(t, bin, fmt.Sprint("instance-", i), "--database-url", dbURL, "--redis-url", redisURL,
			"--rate-limit", fmt.Sprintf("%d/1m", quota), "--auth-rate-limit", "off", "--trusted-proxies", "127.0.0.1/32",
			"--allow-target", target.Host, "--host-analyses-per-minute", "0", "--address-analyses-per-minute", "0",
			"--user-concurrent-analyses", "0", "--user-daily-analyses", "0", "--shutdown-timeout", "30s")
	}
	a, b := fleet[0], fleet[1]
	for _, in := range fleet {
		waitFor(t, in.name+" ready", 4*time.Minute, func() bool { return status(in.base+"/readyz") == 200 })
	}
	if g, err := postgres.DatasetGeneration(context.Background(), db); err != nil || g != 2 {
		t.Errorf("after two instances started on an empty database the generation is %d (%v), want 2: one import", g, err)
	}

	t.Run("public quota is shared", func(t *testing.T) {
		allowed, start := 0, time.Now()
		for i := range 2 * quota {
			if fleet[i%2].do(t, http.MethodGet, "/api/v1/pincodes/110001", "203.0.113.10", "", "").status == 200 {
				allowed++
			}
		}
		// GCRA refills one request per window/quota (3 s): a slow run may earn one more.
		refilled := int(time.Since(start) / (time.Minute / quota))
		if allowed < quota || allowed > quota+refilled {
			t.Errorf("two instances allowed %d of %d requests from one client, want the quota %d (not %d)", allowed, 2*quota, quota, 2*quota)
		}
	})

	t.Run("revoked key refused everywhere", func(t *testing.T) {
		key := a.login(t, "ada@example.com", "203.0.113.11")
		acct := b.do(t, http.MethodGet, "/api/v1/account", "", key, "")
		if acct.status != 200 {
			t.Fatalf("the key on the other instance = %d %s", acct.status, acct.body)
		}
		id := acct.data(t)["current_key"].(map[string]any)["id"]
		if r := a.do(t, http.MethodDelete, fmt.Sprintf("/api/v1/account/keys/%v", id), "", key, ""); r.status != 200 {
			t.Fatalf("revoke = %d %s", r.status, r.body)
		}
		revoked := time.Now()
		for b.do(t, http.MethodGet, "/api/v1/account", "", key, "").status != 401 {
			if time.Since(revoked) > propagationPatience {
				t.Fatalf("the other instance still accepts the revoked key %v after the revocation", propagationPatience)
			}
			time.Sleep(min(20*time.Millisecond+time.Since(revoked)/10, time.Second))
		}
		t.Logf("refused by the other instance %v after the revocation", time.Since(revoked).Round(time.Millisecond))
	})

	t.Run("re-import reaches both", func(t *testing.T) {
		old := a.do(t, http.MethodGet, "/api/v1/pincodes/800001", "203.0.113.12", "", "").header.Get("ETag")
		ds := porttest.PostalDataset()
		ds.Source = postal.Source{Kind: postal.SourceFiles, Release: "2026-11-01"}
		if _, err := postgres.ImportDataset(context.Background(), db, ds); err != nil {
			t.Fatal(err)
		}
		imported := time.Now()
		want := `W/"` + ds.Fingerprint() + `-` // then the PIN's review counts version
		for i, in := range fleet {
			for poll := 0; ; poll++ {
				// Each poll from a client of its own, so the polls stay
				// within the quota of 20 a minute however long they last.
				r := in.do(t, http.MethodGet, "/api/v1/dataset", fmt.Sprintf("198.51.100.%d", 1+(i*125+poll)%250), "", "")
				if r.status == 200 && r.data(t)["release"] == "2026-11-01" {
					break
				}
				if time.Since(imported) > propagationPatience {
					t.Fatalf("%s does not serve the new release %v after the import (last: %d %.300s)", in.name, propagationPatience, r.status, r.body)
				}
				time.Sleep(300 * time.Millisecond)
			}
			etag := in.do(t, http.MethodGet, "/api/v1/pincodes/800001", fmt.Sprint("203.0.113.2", i), "", "").header.Get("ETag")
			if !strings.HasPrefix(etag, want) || etag == old {
				t.Errorf("%s: ETag %s after the re-import, want %s... (before: %s)", in.name, etag, want, old)
			}
		}
		t.Logf("both instances serve the new release %v after the import", time.Since(imported).Round(time.Millisecond))
	})

	t.Run("stopping an instance loses no confirmed report", func(t *testing.T) {
		key := a.login(t, "grace@example.com", "203.0.113.13")
		var mu sync.Mutex
		var confirmed []int64
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 2 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					r := b.do(t, http.MethodPost, "/api/v1/reports", "", key, `{"url":"`+page.URL+`/"}`)
					if r.status == 0 {
						return // the instance is gone
					}
					var created struct{ Data struct{ ID int64 } }
					if r.status == 201 && json.Unmarshal(r.body, &created) == nil {
						mu.Lock()
						confirmed = append(confirmed, created.Data.ID)
						mu.Unlock()
					}
				}
			})
		}
		time.Sleep(time.Second)
		if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := b.wait(40 * time.Second); err != nil {
			t.Errorf("%s after SIGTERM: %v", b.name, err)
		}
		close(stop)
		wg.Wait()
		if len(confirmed) == 0 {
			t.Fatal("no report was confirmed before the stop")
		}
		list := a.do(t, http.MethodGet, "/api/v1/reports?per_page=100", "", key, "")
		have := map[string]bool{}
		for _, r := range list.data(t)["reports"].([]any) {
			have[fmt.Sprint(r.(map[string]any)["id"])] = true
		}
		for _, id := range confirmed {
			if !have[fmt.Sprint(id)] {
				t.Errorf("report %v was confirmed (201) by the stopped instance but is not listed by the other", id)
			}
		}
		t.Logf("%d reports confirmed before and during the stop, all listed by the other instance", len(confirmed))
	})
}

// instance is one `pinsight serve` process.
type instance struct {
	name, base string
	cmd        *exec.Cmd
	log        *bytes.Buffer
	out        *syncWriter // writes log
	done       chan error
}

// startInstance starts serve on a free port with args; the test's end
// kills it (if still running) and prints its log when the test failed.
func startInstance(t *testing.T, bin, name string, args ...string) *instance {
	t.Helper()
	addr := "127.0.0.1:" + freePort(t)
	in := &instance{name: name, base: "http://" + addr, log: &bytes.Buffer{}, done: make(chan error, 1)}
	in.cmd = exec.Command(bin, append([]string{"serve", "--addr", addr, "--log-format", "text", "--log-level", "warn"}, args...)...)
	out := &syncWriter{w: in.log}
	in.cmd.Stdout, in.cmd.Stderr, in.out = out, out, out
	in.cmd.Env = append(os.Environ(), "HOME="+filepath.Join(t.TempDir()))
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { in.done <- in.cmd.Wait() }()
	t.Cleanup(func() {
		_ = in.cmd.Process.Kill()
		<-in.done
		if t.Failed() {
			t.Logf("%s log:\n%s", name, in.log)
		}
	})
	return in
}

// wait waits for the process to exit, successfully.
func (in *instance) wait(limit time.Duration) error {
	select {
	case err := <-in.done:
		in.done <- err
		return err
	case <-time.After(limit):
		return fmt.Errorf("still running after %v", limit)
	}
}

// reply is an answer; status 0 means no answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) data(t *testing.T) map[string]any {
	t.Helper()
	var env struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("answer %d %.300s: %v", r.status, r.body, err)
	}
	return env.Data
}

// do sends one request, from client IP ip (X-Forwarded-For; the
// instances trust the loopback proxy) when given, with a key when given.
func (in *instance) do(t *testing.T, method, path, ip, key, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, in.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if ip != "" {
		req.Header.Set("X-Forwarded-For", ip)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	client := http.Client{Timeout: 30 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		return reply{}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return reply{status: res.StatusCode, header: res.Header, body: raw}
}

// login registers email and returns a fresh key.
func (in *instance) login(t *testing.T, email, ip string) string {
	t.Helper()
	creds := `{"email":"` + email + `","password":"correct horse battery"}`
	if r := in.do(t, http.MethodPost, "/api/v1/register", ip, "", creds); r.status != 201 {
		t.Fatalf("register = %d %s", r.status, r.body)
	}
	r := in.do(t, http.MethodPost, "/api/v1/login", ip, "", creds)
	if r.status != 200 {
		t.Fatalf("login = %d %s", r.status, r.body)
	}
	return r.data(t)["token"].(string)
}

// syncWriter serialises the writes of a process's stdout and stderr.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
