package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

type webhookRow struct {
	bun.BaseModel `bun:"table:webhooks"`

	ID        int64    `bun:"id,pk,autoincrement"`
	UserID    int64    `bun:"user_id"`
	URL       string   `bun:"url"`
	Secret    string   `bun:"secret"`
	Events    []string `bun:"events"` // a JSON list
	CreatedAt stamp    `bun:"created_at"`
}

func (r webhookRow) toDomain() webhook.Webhook {
	return webhook.Webhook{ID: r.ID, UserID: r.UserID, URL: r.URL, Secret: r.Secret, Events: r.Events, CreatedAt: r.CreatedAt.utc()}
}

type deliveryRow struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID             int64  `bun:"id,pk,autoincrement"`
	WebhookID      int64  `bun:"webhook_id"`
	UserID         int64  `bun:"user_id"`
	ReportID       int64  `bun:"report_id"`
	CrawlID        int64  `bun:"crawl_id,nullzero"` // NULL for a report's delivery
	Event          string `bun:"event"`
	Body           []byte `bun:"body"`
	Status         string `bun:"status"`
	Attempts       int    `bun:"attempts"`
	LastError      string `bun:"last_error"`
	ResponseStatus int    `bun:"response_status"`
	CreatedAt      stamp  `bun:"created_at"`
	UpdatedAt      stamp  `bun:"updated_at"`
}

func deliveryRowOf(d webhook.Delivery) deliveryRow {
	return deliveryRow{ID: d.ID, WebhookID: d.WebhookID, UserID: d.UserID, ReportID: d.ReportID, CrawlID: d.CrawlID, Event: d.Event,
		Body: d.Body, Status: string(d.Status), Attempts: d.Attempts, LastError: d.LastError,
		ResponseStatus: d.ResponseStatus, CreatedAt: stampOf(d.CreatedAt), UpdatedAt: stampOf(d.UpdatedAt)}
}

func (r deliveryRow) toDomain() webhook.Delivery {
	return webhook.Delivery{ID: r.ID, WebhookID: r.WebhookID, UserID: r.UserID, ReportID: r.ReportID, CrawlID: r.CrawlID, Event: r.Event,
		Body: r.Body, Status: webhook.DeliveryStatus(r.Status), Attempts: r.Attempts, LastError: r.LastError,
		ResponseStatus: r.ResponseStatus, CreatedAt: r.CreatedAt.utc(), UpdatedAt: r.UpdatedAt.utc()}
}

// CreateWebhook implements ports.WebhookStore: one transaction locks the
// user's row (PostgreSQL; SQLite's writer serialises its transactions),
// counts the user's webhooks and inserts only under limit.
func (s *ReportStore) CreateWebhook(ctx context.Context, w webhook.Webhook, limit int) (webhook.Webhook, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	row := webhookRow{UserID: w.UserID, URL: w.URL, Secret: w.Secret, Events: w.Events, CreatedAt: stampOf(w.CreatedAt)}
	err := s.inTx(ctx, "create webhook", func(ctx context.Context, tx bun.Tx) error {
		if err := s.lockUser(ctx, tx, w.UserID); err != nil {
			return err
		}
		n, err := tx.NewSelect().Model((*webhookRow)(nil)).Where("user_id = ?", w.UserID).Count(ctx)
		if err != nil {
			return s.wrap("count webhooks", err)
		}
		if n >= int64(limit) {
			return webhook.ErrLimit
		}
		_, err = tx.NewInsert().Model(&row).Exec(ctx)
		return s.wrap("create webhook", err)
	})
	if err != nil {
		return webhook.Webhook{}, err
	}
	return row.toDomain(), nil
}

// Webhooks implements ports.WebhookStore.
func (s *ReportStore) Webhooks(ctx context.Context, userID int64) ([]webhook.Webhook, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.webhooksOf(ctx, s.e.Read, userID)
}

// webhooksOf reads the user's webhooks, oldest first, on db (a
// connection or a transaction).
func (s store) webhooksOf(ctx context.Context, db bun.IDB, userID int64) ([]webhook.Webhook, error) {
	var rows []webhookRow
	if err := db.NewSelect().Model(&rows).Where("user_id = ?", userID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, s.wrap("list webhooks", err)
	}
	out := make([]webhook.Webhook, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, nil
}

// Webhook implements ports.WebhookStore.
func (s *ReportStore) Webhook(ctx context.Context, userID, id int64) (webhook.Webhook, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row webhookRow
	if err := s.e.Read.NewSelect().Model(&row).Where("id = ? AND user_id = ?", id, userID).Scan(ctx); err != nil {
		return webhook.Webhook{}, s.missing(err, report.ErrNotFound, "read webhook")
	}
	return row.toDomain(), nil
}

// DeleteWebhook implements ports.WebhookStore (its deliveries go with it).
func (s *ReportStore) DeleteWebhook(ctx context.Context, userID, id int64) error {
	return s.deleteOwned(ctx, (*webhookRow)(nil), userID, id, "delete webhook")
}

// Delivery implements ports.WebhookStore.
func (s *ReportStore) Delivery(ctx context.Context, id int64) (webhook.Delivery, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row deliveryRow
	if err := s.e.Read.NewSelect().Model(&row).Where("id = ?", id).Scan(ctx); err != nil {
		return webhook.Delivery{}, s.missing(err, report.ErrNotFound, "read delivery")
	}
	return row.toDomain(), nil
}

// UpdateDelivery implements ports.WebhookStore: the row is locked for the
// read, the update and the write.
func (s *ReportStore) UpdateDelivery(ctx context.Context, id int64, update func(*webhook.Delivery) error) (webhook.Delivery, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out webhook.Delivery
	err := s.inTx(ctx, "update delivery", func(ctx context.Context, tx bun.Tx) error {
		var row deliveryRow
		if err := s.dialect.lockRows(tx.NewSelect().Model(&row).Where("id = ?", id), false).Scan(ctx); err != nil {
			return s.missing(err, report.ErrNotFound, "read delivery")
		}
		out = row.toDomain()
		if err := update(&out); err != nil {
			return err
		}
		row = deliveryRowOf(out)
		row.ID = id
		_, err := tx.NewUpdate().Model(&row).WherePK().Exec(ctx)
		return s.wrap("update delivery", err)
	})
	return out, err
}

// Deliveries implements ports.WebhookStore.
func (s *ReportStore) Deliveries(ctx context.Context, userID, webhookID int64, limit int) ([]webhook.Delivery, error) {
	if _, err := s.Webhook(ctx, userID, webhookID); err != nil {
		return nil, err
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []deliveryRow
	err := s.e.Read.NewSelect().Model(&rows).Where("webhook_id = ? AND user_id = ?", webhookID, userID).
		OrderExpr("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, s.wrap("list deliveries", err)
	}
	out := make([]webhook.Delivery, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, nil
}

// Interface guard.
var _ ports.WebhookStore = (*ReportStore)(nil)
