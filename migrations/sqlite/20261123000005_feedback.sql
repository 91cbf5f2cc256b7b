-- Feedback players leave from the game; it goes with everything else of theirs when
-- they erase their data.
CREATE TABLE feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    message TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX feedback_annotator ON feedback (annotator_id);
