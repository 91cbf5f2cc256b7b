-- Model scores beside the answers (Eq. 2 of the substitution paper), so analyses are joins.

CREATE TABLE models (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- log p of the context with the target and with the distractor in the blank.
-- Keyed by pair and sentence: the same context scores the same in every item of its pair.
CREATE TABLE context_scores (
    model_id TEXT NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    pair_id BIGINT NOT NULL REFERENCES word_pairs(id) ON DELETE CASCADE,
    sentence_id BIGINT NOT NULL REFERENCES sentences(id) ON DELETE CASCADE,
    target_logprob REAL NOT NULL,
    distractor_logprob REAL NOT NULL,
    PRIMARY KEY (model_id, pair_id, sentence_id)
);

-- Eq. 2: the sum over the item's contexts of target_logprob - distractor_logprob.
CREATE TABLE item_scores (
    model_id TEXT NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    item_id BIGINT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    score REAL NOT NULL,
    PRIMARY KEY (model_id, item_id)
);
