-- A player's score (answers given, answers right) is read with their session on
-- every request: kept on the annotator's row by triggers instead of counted.
ALTER TABLE annotators ADD COLUMN answered BIGINT NOT NULL DEFAULT 0;
ALTER TABLE annotators ADD COLUMN answered_right BIGINT NOT NULL DEFAULT 0;
UPDATE annotators SET
    answered = (SELECT COUNT(*) FROM answers a WHERE a.annotator_id = annotators.id),
    answered_right = (SELECT COALESCE(SUM(a.correct), 0) FROM answers a WHERE a.annotator_id = annotators.id);
CREATE TRIGGER answers_counted AFTER INSERT ON answers BEGIN
    UPDATE annotators SET answered = answered + 1, answered_right = answered_right + NEW.correct WHERE id = NEW.annotator_id;
END;
CREATE TRIGGER answers_uncounted AFTER DELETE ON answers BEGIN
    UPDATE annotators SET answered = answered - 1, answered_right = answered_right - OLD.correct WHERE id = OLD.annotator_id;
END;
