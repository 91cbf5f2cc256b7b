-- A definition round served a group a model has scored by putting every scored group
-- in random order (ORDER BY random()) for each round: 94 ms p95 once all 60,161 of
-- WordNet's groups were scored. Each group a model has scored in a task now has a row
-- here with the group's place in the shuffled order (define_groups.draw), written
-- with its scores, and a round walks that order from a random point by the index, as
-- it does for the other groups: a few rows read however many groups are scored.
CREATE TABLE define_scored (
  task TEXT NOT NULL,
  target TEXT NOT NULL,
  draw DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (task, target)
);
CREATE INDEX define_scored_draw ON define_scored (task, draw);
INSERT INTO define_scored (task, target, draw)
  SELECT DISTINCT d.task, d.target, g.draw FROM define_scores d JOIN define_groups g ON g.target = d.target;
