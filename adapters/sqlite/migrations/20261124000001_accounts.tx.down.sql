DROP TABLE api_keys;
--bun:split
DROP TABLE users;
