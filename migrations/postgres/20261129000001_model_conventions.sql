-- How each model's scores were made (start token, first token, masked scoring...),
-- as the scorer describes it; '' for models registered before it was recorded.
ALTER TABLE models ADD COLUMN convention TEXT NOT NULL DEFAULT '';
