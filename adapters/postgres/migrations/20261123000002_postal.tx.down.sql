DROP TABLE IF EXISTS postal_village_words;
--bun:split
DROP TABLE IF EXISTS postal_villages;
--bun:split
DROP TABLE IF EXISTS post_office_words;
--bun:split
DROP TABLE IF EXISTS post_offices;
--bun:split
DROP TABLE IF EXISTS postal_districts;
--bun:split
DROP TABLE IF EXISTS postal_states;
--bun:split
DROP TABLE IF EXISTS postal_dataset;
