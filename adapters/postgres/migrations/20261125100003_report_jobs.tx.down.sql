DELETE FROM reports WHERE rating = '';
--bun:split
DROP INDEX reports_user_status;
--bun:split
ALTER TABLE reports DROP CONSTRAINT reports_rating_check;
--bun:split
ALTER TABLE reports ADD CONSTRAINT reports_rating_check CHECK (rating IN ('good', 'decent', 'bad'));
--bun:split
ALTER TABLE reports DROP COLUMN failure;
--bun:split
ALTER TABLE reports DROP COLUMN attempts;
--bun:split
ALTER TABLE reports DROP COLUMN status;
