-- Each report gets its public share token (the report page is /r/TOKEN): 26
-- characters of lower-case base32. The reports that exist draw theirs from
-- two gen_random_uuid() (the server's strong random source): the low five
-- bits of 26 of their bytes, 128 random bits; the server draws the others
-- (site.NewShareToken).
SET LOCAL statement_timeout = 0; -- one UPDATE of every report: not a serving query
--bun:split
ALTER TABLE reports ADD COLUMN token text;
--bun:split
UPDATE reports SET token = (
    SELECT string_agg(substr('abcdefghijklmnopqrstuvwxyz234567', (get_byte(r.b, i) & 31) + 1, 1), '' ORDER BY i)
    FROM (SELECT decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex') AS b
          WHERE reports.id IS NOT NULL) AS r, -- correlated: drawn again for each row
         generate_series(0, 25) AS i
);
--bun:split
ALTER TABLE reports ALTER COLUMN token SET NOT NULL;
--bun:split
ALTER TABLE reports ADD CONSTRAINT reports_token_length CHECK (length(token) = 26);
--bun:split
CREATE UNIQUE INDEX reports_token ON reports (token);
