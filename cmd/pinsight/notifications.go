package main

import (
	"context"
	"log/slog"
	"strconv"
	"sync"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
)

// subscriptionGroup collects the NOTIFY channels an instance listens on.
const subscriptionGroup = `group:"pg_subscriptions"`

// asSubscription tags a constructor of a postgres.Subscription for the
// instance's listener.
func asSubscription(f any) any { return fx.Annotate(f, fx.ResultTags(subscriptionGroup)) }

// postgresNotifications runs one listener connection per instance for
// every subscription in the graph (the postal replica's dataset
// generations, the key revocations, other instances' review writes) for the app's lifetime.
var postgresNotifications = fx.Options(
	fx.Provide(asSubscription(keyRevocations)),
	fx.Provide(asSubscription(func(dir *directory.Directory) postgres.Subscription {
		return postgres.ReviewsSubscription(dir.CountsChanged)
	})),
	fx.Invoke(fx.Annotate(listen, fx.ParamTags(``, ``, ``, subscriptionGroup))),
)

// keyRevocations drops a key revoked on any instance from this one's cache
// of verified keys, and every key after a reconnection (a revocation may
// have been missed meanwhile).
func keyRevocations(a *accounts.Accounts, log *slog.Logger) postgres.Subscription {
	return postgres.Subscription{
		Channel: postgres.KeysChannel,
		Notify: func(payload string) {
			id, err := strconv.ParseInt(payload, 10, 64)
			if err != nil {
				log.Warn("key revocation with a bad payload: forgetting every cached key", "payload", payload)
				a.ForgetAll()
				return
			}
			a.Forget(id)
		},
		Missed: a.ForgetAll,
	}
}

// listen runs the listener from start to stop.
func listen(lc fx.Lifecycle, db *postgres.DB, log *slog.Logger, subs []postgres.Subscription) {
	l := postgres.NewListener(db, subs...)
	l.Logger = log
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	lc.Append(fx.StartStopHook(func() { wg.Go(func() { l.Run(ctx) }) }, func() { cancel(); wg.Wait() }))
}
