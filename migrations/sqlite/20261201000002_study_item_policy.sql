-- How a crowd study's items are chosen (issue 29): 'fewest' (the item held by the
-- fewest people, as in the open game) or 'information' (adaptive: the item with the
-- most information at the participant's ability estimate).
ALTER TABLE crowd_studies ADD COLUMN item_policy TEXT NOT NULL DEFAULT 'fewest' CHECK (item_policy IN ('fewest', 'information'));
