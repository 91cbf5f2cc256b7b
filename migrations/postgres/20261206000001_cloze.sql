-- The cloze game: a corpus sentence with one word blanked out (a position of the
-- next-word game: 1 is the sentence's second word), the same for every player; the player
-- types the word, once. The model words it shows are the next-word game's
-- predictions of the same position (guess_predictions).

CREATE TABLE cloze_servings (
    id TEXT PRIMARY KEY,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    sentence_id BIGINT NOT NULL REFERENCES sentences(id),
    position BIGINT NOT NULL,
    served_at BIGINT NOT NULL,
    UNIQUE (annotator_id, sentence_id)
);
CREATE INDEX cloze_servings_sentence ON cloze_servings (sentence_id);

-- One answer a serving, with what it measured as every mode's answers
-- (20261203000001_trials_in_every_mode).
CREATE TABLE cloze_answers (
    serving_id TEXT PRIMARY KEY REFERENCES cloze_servings(id) ON DELETE CASCADE,
    typed TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
    created_at BIGINT NOT NULL,
    client_ms BIGINT,
    client_ms_reported BIGINT,
    server_ms BIGINT NOT NULL,
    input_device TEXT CHECK (input_device IN ('mouse', 'touch', 'pen', 'key')),
    hidden_changes BIGINT,
    clock_us BIGINT,
    frame_us BIGINT
);
