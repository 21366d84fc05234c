DROP TABLE report_screenshots;
--bun:split
ALTER TABLE reports DROP COLUMN screenshots;
--bun:split
ALTER TABLE reports DROP COLUMN screenshot;
