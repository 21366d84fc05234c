DROP TABLE postal_release_changes;
--bun:split
DROP TABLE postal_releases;
