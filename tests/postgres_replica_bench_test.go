package tests

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"sync/atomic"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports"
)

// BenchmarkPostalLookup is GET /api/v1/pincodes/110001 through the
// production handler over the full directory, served three ways: from
// memory (sqlite: and memory: storage), from the in-memory replica of the
// directory imported into Postgres (what serve does on Postgres: the
// target is >= 0.9x memory), and from the per-request Postgres store, for
// contrast (several round trips per lookup).
func BenchmarkPostalLookup(b *testing.B) {
	ds := fullDataset(b)
	db, _ := newDatabase(b)
	ctx := context.Background()
	if _, err := postgres.ImportDataset(ctx, db, ds); err != nil {
		b.Fatal(err)
	}
	replica, _, err := postgres.LoadDataset(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []struct {
		name  string
		store ports.PostalStore
	}{
		{"memory", memory.NewPostalStore(ds)},
		{"postgres_replica", memory.NewPostalStore(replica)},
		{"postgres_per_request", postgres.NewPostalStore(db)},
	} {
		h := twinHandler(s.store, memory.NewAccountStore(), memory.NewReportStore())
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/pincodes/110001", nil))
					if rec.Code != http.StatusOK {
						b.Fatalf("status %d: %s", rec.Code, rec.Body)
					}
				}
			})
		})
	}
}

// BenchmarkLoadDataset is one reload of an instance's replica: the whole
// imported directory read in one snapshot (postgres.LoadDataset), through
// a loopback proxy counting the bytes the database sends (wire-MB/op: what
// every instance reads from Postgres after an import); swap adds indexing
// it and swapping it into the served store (memory.PostalStore.Replace),
// as an instance does after an import.
func BenchmarkLoadDataset(b *testing.B) {
	ds := fullDataset(b)
	db, url := newDatabase(b)
	ctx := context.Background()
	if _, err := postgres.ImportDataset(ctx, db, ds); err != nil {
		b.Fatal(err)
	}
	proxy := newCountingProxy(b, url)
	pdb, err := postgres.Open(ctx, postgres.Config{URL: proxy.url, MaxOpenConns: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer pdb.Close()
	if _, _, err := postgres.LoadDataset(ctx, pdb); err != nil { // the connection, and a warm cache
		b.Fatal(err)
	}
	store := memory.NewPostalStore(ds)
	for _, swap := range []bool{false, true} {
		b.Run(map[bool]string{false: "read", true: "read_and_swap"}[swap], func(b *testing.B) {
			proxy.received.Store(0)
			for b.Loop() {
				got, _, err := postgres.LoadDataset(ctx, pdb)
				if err != nil || len(got.Offices) != len(ds.Offices) {
					b.Fatalf("LoadDataset: %v", err)
				}
				if swap {
					store.Replace(got)
				}
			}
			b.ReportMetric(float64(proxy.received.Load())/float64(b.N)/1e6, "wire-MB/op")
		})
	}
}

// countingProxy forwards loopback TCP connections to a database and counts
// the bytes the database sends back.
type countingProxy struct {
	url      string // the database's URL through the proxy
	received atomic.Int64
}

func newCountingProxy(tb testing.TB, dbURL string) *countingProxy {
	tb.Helper()
	u, err := neturl.Parse(dbURL)
	if err != nil {
		tb.Fatal(err)
	}
	target := u.Host
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = l.Close() })
	u.Host = l.Addr().String()
	p := &countingProxy{url: u.String()}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.forward(c, target)
		}
	}()
	return p
}

func (p *countingProxy) forward(c net.Conn, target string) {
	defer c.Close()
	d, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer d.Close()
	go func() { _, _ = io.Copy(d, c); _ = d.Close() }()
	_, _ = io.Copy(countedWriter{c, &p.received}, d)
}

// countedWriter adds the bytes written through it to n.
type countedWriter struct {
	io.Writer
	n *atomic.Int64
}

func (w countedWriter) Write(b []byte) (int, error) {
	k, err := w.Writer.Write(b)
	w.n.Add(int64(k))
	return k, err
}
