-- What the browser saw of each answer's trial (issue 29): the input that answered
-- (mouse, touch, pen, key), how often the page went hidden while the item was
-- shown, the step of the browser's clock and the frame interval at the onset
-- (microseconds). Empty for answers sent without JavaScript and for older answers.
ALTER TABLE answers ADD COLUMN input_device TEXT CHECK (input_device IN ('mouse', 'touch', 'pen', 'key'));
ALTER TABLE answers ADD COLUMN hidden_changes BIGINT;
ALTER TABLE answers ADD COLUMN clock_us BIGINT;
ALTER TABLE answers ADD COLUMN frame_us BIGINT;
