ALTER TABLE reports DROP COLUMN rendering;
--bun:split
ALTER TABLE reports DROP COLUMN rendered;
--bun:split
ALTER TABLE reports DROP COLUMN render;
