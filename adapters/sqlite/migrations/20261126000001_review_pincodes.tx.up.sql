-- A directory re-reads the counts of one pincode when a write to it is
-- announced (ports.ReviewCounts.Counts): by pincode, not by office key.
CREATE INDEX office_reviews_pincode ON office_reviews (pincode);
--bun:split
CREATE INDEX office_likes_pincode ON office_likes (pincode);
