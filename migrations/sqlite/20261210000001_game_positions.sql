-- The games now count "don't" as one word and keep an elision's apostrophe ("l'"):
-- model::words::game_spans. Stored rows numbered by the earlier count are put right
-- once, at the first start after this migration (store::game_positions), which
-- records it here.
CREATE TABLE data_repairs (
    name TEXT PRIMARY KEY,
    done_at BIGINT NOT NULL
);

-- Guesses made at positions the new count numbers differently (from the first
-- contraction of their sentence on): kept as they were, out of the analyses; the
-- round goes on from that position with the new words.
CREATE TABLE guess_answers_replaced (
    serving_id TEXT NOT NULL REFERENCES guess_servings(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    guess TEXT NOT NULL,
    word TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
    rank INTEGER,
    client_ms BIGINT,
    server_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    client_ms_reported BIGINT,
    input_device TEXT,
    hidden_changes BIGINT,
    clock_us BIGINT,
    frame_us BIGINT,
    replaced_at BIGINT NOT NULL,
    PRIMARY KEY (serving_id, position)
);

-- Sentences whose predictions by a model the repair deleted: the games' supply
-- predicts those of its default model again before others (people play them now),
-- `gapwise score-guess` those of any model.
CREATE TABLE predictions_to_remake (
    model_id TEXT NOT NULL REFERENCES models(id),
    sentence_id BIGINT NOT NULL REFERENCES sentences(id),
    PRIMARY KEY (model_id, sentence_id)
);
