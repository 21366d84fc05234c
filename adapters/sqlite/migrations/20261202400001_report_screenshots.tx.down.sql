-- Back to reports without screenshots (the columns dropped keep the order
-- of the others: results and rendering last).
DROP TABLE report_screenshots;
--bun:split
ALTER TABLE reports DROP COLUMN screenshots;
--bun:split
ALTER TABLE reports DROP COLUMN screenshot;
