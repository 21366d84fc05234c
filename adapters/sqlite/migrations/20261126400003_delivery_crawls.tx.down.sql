ALTER TABLE webhook_deliveries DROP COLUMN crawl_id;
