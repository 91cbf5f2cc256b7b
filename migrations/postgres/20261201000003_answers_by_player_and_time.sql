-- A player's progress is kept folded in memory and only the answers stored since
-- are read (issue 28): by player and time. The index by player alone is covered.
DROP INDEX answers_annotator;
CREATE INDEX answers_annotator_time ON answers (annotator_id, created_at);
