DROP INDEX office_likes_pincode;
--bun:split
DROP INDEX office_reviews_pincode;
