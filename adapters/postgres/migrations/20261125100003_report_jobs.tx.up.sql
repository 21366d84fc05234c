-- Reports become jobs (analysis on River): each gets a status (pending,
-- running, generated, failed), the attempts of its current analysis and the
-- reason of a failure. A report still waiting for its analysis has no
-- rating yet ('').
ALTER TABLE reports ADD COLUMN status text NOT NULL DEFAULT 'generated'
    CHECK (status IN ('pending', 'running', 'generated', 'failed'));
--bun:split
ALTER TABLE reports ADD COLUMN attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 0);
--bun:split
ALTER TABLE reports ADD COLUMN failure text NOT NULL DEFAULT '';
--bun:split
ALTER TABLE reports DROP CONSTRAINT reports_rating_check;
--bun:split
ALTER TABLE reports ADD CONSTRAINT reports_rating_check CHECK (rating IN ('good', 'decent', 'bad', ''));
--bun:split
CREATE INDEX reports_user_status ON reports (user_id, status);
