-- A player's score (answers given, answers right) is read every game round: with
-- `correct` in the index it is counted from the index alone, without a lookup of
-- each answer's row.
DROP INDEX answers_annotator;
CREATE INDEX answers_annotator_correct ON answers (annotator_id, correct);
