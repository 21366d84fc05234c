ALTER TABLE crawls DROP COLUMN quota_until;
