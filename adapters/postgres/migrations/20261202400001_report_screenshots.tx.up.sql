-- Screenshots of rendered audits: which ones a report's rendered analyses
-- keep ('' is viewport), the kinds stored with its current analysis
-- ('', 'viewport', 'full' or 'viewport,full'; lists show them), and the
-- images, once per report and kind, bounded (JPEG files, the viewport's at
-- most 300 KiB, the full page's at most 2 MiB: report.MaxViewportShot,
-- report.MaxFullShot), deleted with the report.
ALTER TABLE reports ADD COLUMN screenshot text NOT NULL DEFAULT '' CHECK (screenshot IN ('', 'viewport', 'full'));
--bun:split
ALTER TABLE reports ADD COLUMN screenshots text NOT NULL DEFAULT '' CHECK (screenshots IN ('', 'viewport', 'full', 'viewport,full'));
--bun:split
CREATE TABLE report_screenshots (
    report_id bigint NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    kind      text   NOT NULL CHECK (kind IN ('viewport', 'full')),
    image     bytea  NOT NULL,
    CHECK (octet_length(image) BETWEEN 1 AND (CASE kind WHEN 'viewport' THEN 307200 ELSE 2097152 END)),
    PRIMARY KEY (report_id, kind)
);
