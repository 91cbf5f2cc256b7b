-- Serving a definition round (0.9-2.6 s once the demo's model had scored groups):
-- 1. the groups a model has scored go first; the lookup is by task and group, which
--    the primary key (model first) cannot answer, so every group scanned every score;
-- 2. the other groups were put in random order whole (60,000 of WordNet's) for each
--    round. Each group now holds a fixed place in a shuffled order (`draw`, drawn in [0, 1)
--    at import), and a round walks that order from a random
--    point, reading a few rows by the index.
CREATE INDEX define_scores_by_group ON define_scores (task, target);
ALTER TABLE define_groups ADD COLUMN draw REAL NOT NULL DEFAULT 0;
UPDATE define_groups SET draw = (abs(random()) % 1000000000) / 1000000000.0;
CREATE INDEX define_groups_draw ON define_groups (draw);
