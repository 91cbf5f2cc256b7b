-- The response time a browser reported when it cannot be true (zero, negative, or
-- over an hour): kept as sent, flagged in exports, never used as the answer's time.
ALTER TABLE answers ADD COLUMN client_ms_reported BIGINT;

-- A blanker's points (answers to the pairs they proposed) start from their pairs.
CREATE INDEX word_pairs_creator ON word_pairs (creator_id);
