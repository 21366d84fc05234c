DROP TABLE review_versions;
--bun:split
DROP TABLE office_likes;
--bun:split
DROP TABLE office_reviews;
