-- The trial of every mode's answers, as the main game's answers have it
-- (20261201000001_trials): the input that answered (mouse, touch, pen, key), how
-- often the page went hidden while the item was shown, the step of the browser's
-- clock and the frame interval at the onset (microseconds). Empty for answers sent
-- without JavaScript and for older answers.
ALTER TABLE rate_ratings ADD COLUMN input_device TEXT CHECK (input_device IN ('mouse', 'touch', 'pen', 'key'));
ALTER TABLE rate_ratings ADD COLUMN hidden_changes BIGINT;
ALTER TABLE rate_ratings ADD COLUMN clock_us BIGINT;
ALTER TABLE rate_ratings ADD COLUMN frame_us BIGINT;
ALTER TABLE define_picks ADD COLUMN input_device TEXT CHECK (input_device IN ('mouse', 'touch', 'pen', 'key'));
ALTER TABLE define_picks ADD COLUMN hidden_changes BIGINT;
ALTER TABLE define_picks ADD COLUMN clock_us BIGINT;
ALTER TABLE define_picks ADD COLUMN frame_us BIGINT;
ALTER TABLE guess_answers ADD COLUMN input_device TEXT CHECK (input_device IN ('mouse', 'touch', 'pen', 'key'));
ALTER TABLE guess_answers ADD COLUMN hidden_changes BIGINT;
ALTER TABLE guess_answers ADD COLUMN clock_us BIGINT;
ALTER TABLE guess_answers ADD COLUMN frame_us BIGINT;
ALTER TABLE new_words_servings ADD COLUMN input_device TEXT CHECK (input_device IN ('mouse', 'touch', 'pen', 'key'));
ALTER TABLE new_words_servings ADD COLUMN hidden_changes BIGINT;
ALTER TABLE new_words_servings ADD COLUMN clock_us BIGINT;
ALTER TABLE new_words_servings ADD COLUMN frame_us BIGINT;
