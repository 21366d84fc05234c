package crawls

import (
	"context"
	"strconv"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// returnUnused gives back to its user's daily page quota the pages crawl
// c was charged for and did not crawl (Settings.MaxPages less
// Progress.Crawled), once c is final or deleted: at most those of its
// charge not back by themselves yet (crawl.Crawl.QuotaUntil). It may be
// called again for the same crawl (a run resumed after a crash finds it
// final and calls it again): the limiter gives back once per crawl, by
// the receipt "crawl:<id>". A rendered crawl's unused renders go back to
// the quota of renders the same way.
func (cs *Crawls) returnUnused(ctx context.Context, c crawl.Crawl) {
	if unused := c.Settings.MaxPages - c.Progress.Crawled; unused > 0 {
		receipt := "crawl:" + strconv.FormatInt(c.ID, 10)
		cs.giveBack(ctx, c, unused, receipt)
		cs.returnRenders(ctx, c, unused, receipt)
	}
}

// giveBack gives n of the pages c was charged for back to its user's
// daily page quota, once per receipt, when the limiter can
// (ports.QuotaReturner); a failing limiter keeps them (logged).
func (cs *Crawls) giveBack(ctx context.Context, c crawl.Crawl, n int, receipt string) {
	limit := cs.dailyLimit()
	r, ok := cs.cfg.Limiter.(ports.QuotaReturner)
	if !ok || !limit.Enabled() || c.QuotaUntil.IsZero() || !c.QuotaUntil.After(cs.clock()) {
		return
	}
	back, err := r.GiveBack(context.WithoutCancel(ctx), quotaKey(c.UserID), limit, n, c.QuotaUntil, receipt)
	if err != nil {
		cs.cfg.Log.WarnContext(ctx, "crawl pages not given back to the daily quota", "crawl", c.ID, "user", c.UserID, "pages", n, "err", err)
		return
	}
	if back > 0 {
		cs.cfg.Log.InfoContext(ctx, "crawl pages given back to the daily quota", "crawl", c.ID, "user", c.UserID, "pages", back)
	}
}
