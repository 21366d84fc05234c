package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

type webhookRow struct {
	bun.BaseModel `bun:"table:webhooks"`

	ID        int64     `bun:"id,pk,autoincrement"`
	UserID    int64     `bun:"user_id"`
	URL       string    `bun:"url"`
	Secret    string    `bun:"secret"`
	Events    string    `bun:"events"` // JSON list
	CreatedAt time.Time `bun:"created_at"`
}

func (r webhookRow) toDomain() (site.Webhook, error) {
	w := site.Webhook{ID: r.ID, UserID: r.UserID, URL: r.URL, Secret: r.Secret, CreatedAt: r.CreatedAt.UTC()}
	if err := json.Unmarshal([]byte(r.Events), &w.Events); err != nil {
		return site.Webhook{}, fmt.Errorf("postgres: webhook %d: %w", r.ID, err)
	}
	return w, nil
}

type deliveryRow struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID             int64     `bun:"id,pk,autoincrement"`
	WebhookID      int64     `bun:"webhook_id"`
	UserID         int64     `bun:"user_id"`
	ReportID       int64     `bun:"report_id"`
	Event          string    `bun:"event"`
	Body           []byte    `bun:"body"`
	Status         string    `bun:"status"`
	Attempts       int       `bun:"attempts"`
	LastError      string    `bun:"last_error"`
	ResponseStatus int       `bun:"response_status"`
	CreatedAt      time.Time `bun:"created_at"`
	UpdatedAt      time.Time `bun:"updated_at"`
}

func deliveryRowOf(d site.Delivery) deliveryRow {
	return deliveryRow{ID: d.ID, WebhookID: d.WebhookID, UserID: d.UserID, ReportID: d.ReportID, Event: d.Event,
		Body: d.Body, Status: string(d.Status), Attempts: d.Attempts, LastError: d.LastError,
		ResponseStatus: d.ResponseStatus, CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()}
}

func (r deliveryRow) toDomain() site.Delivery {
	return site.Delivery{ID: r.ID, WebhookID: r.WebhookID, UserID: r.UserID, ReportID: r.ReportID, Event: r.Event,
		Body: r.Body, Status: site.DeliveryStatus(r.Status), Attempts: r.Attempts, LastError: r.LastError,
		ResponseStatus: r.ResponseStatus, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

// CreateWebhook implements ports.WebhookStore.
func (s *ReportStore) CreateWebhook(ctx context.Context, w site.Webhook) (site.Webhook, error) {
	events, err := json.Marshal(w.Events)
	if err != nil {
		return site.Webhook{}, fmt.Errorf("postgres: encode events: %w", err)
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	row := webhookRow{UserID: w.UserID, URL: w.URL, Secret: w.Secret, Events: string(events), CreatedAt: w.CreatedAt.UTC()}
	if _, err := s.db.NewInsert().Model(&row).Exec(ctx); err != nil {
		return site.Webhook{}, wrap("create webhook", err)
	}
	return row.toDomain()
}

// Webhooks implements ports.WebhookStore.
func (s *ReportStore) Webhooks(ctx context.Context, userID int64) ([]site.Webhook, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []webhookRow
	if err := s.db.NewSelect().Model(&rows).Where("user_id = ?", userID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, wrap("list webhooks", err)
	}
	out := make([]site.Webhook, len(rows))
	for i, row := range rows {
		w, err := row.toDomain()
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}

// Webhook implements ports.WebhookStore.
func (s *ReportStore) Webhook(ctx context.Context, userID, id int64) (site.Webhook, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row webhookRow
	if err := s.db.NewSelect().Model(&row).Where("id = ? AND user_id = ?", id, userID).Scan(ctx); err != nil {
		return site.Webhook{}, siteNotFound(err, "read webhook")
	}
	return row.toDomain()
}

// DeleteWebhook implements ports.WebhookStore (its deliveries go with it).
func (s *ReportStore) DeleteWebhook(ctx context.Context, userID, id int64) error {
	return s.deleteOwned(ctx, (*webhookRow)(nil), userID, id, "delete webhook")
}

// Delivery implements ports.WebhookStore.
func (s *ReportStore) Delivery(ctx context.Context, id int64) (site.Delivery, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row deliveryRow
	if err := s.db.NewSelect().Model(&row).Where("id = ?", id).Scan(ctx); err != nil {
		return site.Delivery{}, siteNotFound(err, "read delivery")
	}
	return row.toDomain(), nil
}

// UpdateDelivery implements ports.WebhookStore.
func (s *ReportStore) UpdateDelivery(ctx context.Context, id int64, update func(*site.Delivery) error) (site.Delivery, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var out site.Delivery
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var row deliveryRow
		if err := tx.NewSelect().Model(&row).Where("id = ?", id).For("UPDATE").Scan(ctx); err != nil {
			return siteNotFound(err, "read delivery")
		}
		out = row.toDomain()
		if err := update(&out); err != nil {
			return err
		}
		row = deliveryRowOf(out)
		row.ID = id
		if _, err := tx.NewUpdate().Model(&row).WherePK().Exec(ctx); err != nil {
			return wrap("update delivery", err)
		}
		return nil
	})
	return out, txErr("update delivery", err)
}

// Deliveries implements ports.WebhookStore.
func (s *ReportStore) Deliveries(ctx context.Context, userID, webhookID int64, limit int) ([]site.Delivery, error) {
	if _, err := s.Webhook(ctx, userID, webhookID); err != nil {
		return nil, err
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []deliveryRow
	err := s.db.NewSelect().Model(&rows).Where("webhook_id = ? AND user_id = ?", webhookID, userID).
		OrderExpr("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, wrap("list deliveries", err)
	}
	out := make([]site.Delivery, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, nil
}

// CreateDeliveries implements ports.WebhookQueue: the rows and their jobs
// in one transaction.
func (j *Jobs) CreateDeliveries(ctx context.Context, ds []site.Delivery) ([]site.Delivery, error) {
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	out := make([]site.Delivery, len(ds))
	err := j.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for i, d := range ds {
			row := deliveryRowOf(d)
			row.ID = 0
			if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
				return wrap("create delivery", err)
			}
			if _, err := j.InsertDelivery(ctx, tx.Tx, row.ID); err != nil {
				return wrap("enqueue delivery", err)
			}
			out[i] = row.toDomain()
		}
		return nil
	})
	return out, txErr("create deliveries", err)
}

// Interface guards.
var (
	_ ports.WebhookStore = (*ReportStore)(nil)
	_ ports.WebhookQueue = (*Jobs)(nil)
)
