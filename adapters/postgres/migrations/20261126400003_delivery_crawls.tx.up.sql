-- The crawl of a crawl.finished delivery (NULL for a report's, whose
-- report_id names its report; a crawl's deliveries keep report_id 0).
-- Deliveries stored before keep NULL: their body names the crawl.
ALTER TABLE webhook_deliveries ADD COLUMN crawl_id bigint;
