-- Rendered audits: the render mode a report's analyses use ('' is off),
-- whether its current analysis rendered (lists show it), and what the
-- browser showed (NULL when the analysis did not mean to render).
ALTER TABLE reports ADD COLUMN render text NOT NULL DEFAULT '' CHECK (render IN ('', 'off', 'on', 'auto'));
--bun:split
ALTER TABLE reports ADD COLUMN rendered boolean NOT NULL DEFAULT false;
--bun:split
ALTER TABLE reports ADD COLUMN rendering jsonb;
