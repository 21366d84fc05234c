package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/ports"
)

// pageChunk is one chunk of EachPage's pages, with their outlinks and
// issue types, or the error reading it; final marks the last one.
type pageChunk struct {
	pages []ports.CrawlPage
	err   error
	final bool
}

// EachPage implements ports.CrawlStore: pages eachChunk at a time by id,
// then their links, each chunk in a snapshot, then their issue types,
// unless the crawl had no issues when EachPage began (as at its first
// finish, before SaveIssues). The chunks are read ahead of fn, two at
// once on two connections (readAhead): a crawl's finish reads every page.
func (s *CrawlStore) EachPage(ctx context.Context, id int64, fn func(ports.CrawlPage) error) error {
	if err := s.exists(ctx, id); err != nil {
		return err
	}
	withIssues, err := s.hasIssues(ctx, id)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	var readers sync.WaitGroup
	defer func() { stop(); readers.Wait() }()
	chunks := make(chan chan pageChunk)
	readers.Go(func() { s.readAhead(ctx, id, withIssues, chunks, &readers) })
	for next := range chunks {
		c := <-next
		if c.err != nil {
			return c.err
		}
		for _, p := range c.pages {
			if err := fn(p); err != nil {
				return err
			}
		}
		if c.final {
			return nil
		}
	}
	return s.wrap("read pages", ctx.Err()) // readAhead stopped as ctx ended
}

// readAhead sends EachPage the chunks of crawl id's pages in order, each
// read by a goroutine of readers as soon as its ids are known: the ids
// after the last chunk's up to its eachChunk-th recorded page's (chunkEnd).
// chunks is unbuffered, so at most two chunks are held: the one fn is
// given and the next, read meanwhile (and while EachPage waits for a
// chunk, the next one is read beside it). The last chunk, with fewer than
// eachChunk pages when chunkEnd looked, is read here, eachChunk pages at
// most, going on after it if it is full (pages recorded meanwhile).
func (s *CrawlStore) readAhead(ctx context.Context, id int64, withIssues bool, chunks chan<- chan pageChunk, readers *sync.WaitGroup) {
	defer close(chunks)
	var after int64
	for {
		upto, err := s.chunkEnd(ctx, id, after)
		next := make(chan pageChunk, 1)
		var last int64
		switch {
		case err != nil:
			next <- pageChunk{err: err}
		case upto > 0:
			from := after // after moves on before the read begins
			readers.Go(func() {
				var c pageChunk
				c.pages, _, c.err = s.readChunk(ctx, id, from, upto, withIssues)
				next <- c
			})
		default:
			var c pageChunk
			c.pages, last, c.err = s.readChunk(ctx, id, after, 0, withIssues)
			err, c.final = c.err, c.err == nil && last == 0
			next <- c
		}
		select {
		case chunks <- next:
		case <-ctx.Done():
			return
		}
		switch {
		case err != nil:
			return
		case upto > 0:
			after = upto
		case last == 0:
			return
		default:
			after = last
		}
	}
}

// chunkEnd is the id of the eachChunk-th recorded page of crawl id after
// id after, or 0 if there are fewer: by the ids alone, it is cheap.
func (s *CrawlStore) chunkEnd(ctx context.Context, id, after int64) (int64, error) {
	var upto int64
	err := s.chunk(ctx, "read pages", func(ctx context.Context) error {
		sel := s.e.Read.NewSelect().Model((*urlRow)(nil)).Column("id").Where("crawl_id = ? AND recorded = TRUE AND id > ?", id, after)
		err := s.dialect.byID(sel, "crawl_urls AS u").OrderExpr("id").Limit(1).Offset(eachChunk-1).Scan(ctx, &upto)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	return upto, err
}

// readChunk reads the recorded pages of crawl id with ids after after,
// up to upto, or eachChunk of them when upto is 0, with their outlinks (in
// one snapshot) and, withIssues, their issue types. last is the id of the
// chunk's last page when it is a full one read without upto (then more
// may follow), else 0.
func (s *CrawlStore) readChunk(ctx context.Context, id, after, upto int64, withIssues bool) (pages []ports.CrawlPage, last int64, err error) {
	var rows []urlRow
	var links []linkRow
	err = s.chunk(ctx, "read pages", func(ctx context.Context) error {
		return s.e.Read.RunInTx(ctx, s.dialect.snapshot(), func(ctx context.Context, tx bun.Tx) error {
			sel := tx.NewSelect().Model(&rows).ExcludeColumn(pageSkipped...).Where("crawl_id = ? AND recorded = TRUE AND id > ?", id, after)
			if upto > 0 {
				sel.Where("id <= ?", upto)
			} else {
				sel.Limit(eachChunk)
			}
			err := s.dialect.byID(sel, "crawl_urls AS u").OrderExpr("id").Scan(ctx)
			if err != nil || len(rows) == 0 {
				return err
			}
			// By the (from_id, id) index: "+" keeps the engine from
			// walking all of the crawl's links by (crawl_id, to_url).
			return tx.NewSelect().Model(&links).Column("from_id", "to_url").
				Where("+crawl_id = ? AND from_id BETWEEN ? AND ?", id, rows[0].ID, rows[len(rows)-1].ID).OrderExpr("from_id, id").Scan(ctx)
		})
	})
	if err != nil {
		return nil, 0, err
	}
	if upto == 0 && len(rows) == eachChunk {
		last = rows[len(rows)-1].ID
	}
	if pages, err = pagesOf(rows, false); err != nil {
		return nil, 0, err
	}
	if withIssues {
		if err := s.chunk(ctx, "read issue types", func(ctx context.Context) error { return s.issueTypes(ctx, s.e.Read, id, pages) }); err != nil {
			return nil, 0, err
		}
	}
	l := 0
	for i := range pages {
		p := &pages[i]
		for ; l < len(links) && links[l].FromID < p.ID; l++ {
		}
		for ; l < len(links) && links[l].FromID == p.ID; l++ {
			p.Page.Outlinks = append(p.Page.Outlinks, links[l].ToURL)
		}
	}
	return pages, last, nil
}
