-- Invented-word Winograd items (WinoDict, 003_e0d4aede4cc7e323.txt): the items, the
-- words each is played with, the rounds people play and the judgements of models.

CREATE TABLE winodict_items (
    -- 'wd-' and the start of the SHA-256 of the original sentence
    id TEXT PRIMARY KEY,
    option_a TEXT NOT NULL,
    option_b TEXT NOT NULL,
    answer INTEGER NOT NULL CHECK (answer IN (0, 1)),
    -- of the key word
    pos TEXT NOT NULL CHECK (pos IN ('noun', 'verb', 'adj', 'adv')),
    -- WordNet's gloss of the key word's first sense
    definition TEXT NOT NULL,
    source TEXT NOT NULL
);

-- An item with the word it is played with: the key word itself ('original'), the
-- letter model's invented word, or a known word of the same part of speech
-- ('shifted'); the sentence as played (with '_' for the blank) and the sentence
-- that defines the word (Table 6 of the paper), both as people and models see them.
CREATE TABLE winodict_variants (
    item_id TEXT NOT NULL REFERENCES winodict_items(id),
    word TEXT NOT NULL CHECK (word IN ('original', 'invented', 'shifted')),
    lemma TEXT NOT NULL,
    sentence TEXT NOT NULL,
    taught TEXT NOT NULL,
    PRIMARY KEY (item_id, word)
);

-- An item served to a player with the word it is played with and whether its
-- definition is shown; the answer, once given, in the same row.
CREATE TABLE winodict_servings (
    id TEXT PRIMARY KEY,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL REFERENCES winodict_items(id),
    word TEXT NOT NULL CHECK (word IN ('original', 'invented', 'shifted')),
    with_definition INTEGER NOT NULL CHECK (with_definition IN (0, 1)),
    served_at BIGINT NOT NULL,
    choice INTEGER CHECK (choice IN (0, 1)),
    correct INTEGER CHECK (correct IN (0, 1)),
    client_ms BIGINT,
    server_ms BIGINT,
    UNIQUE (annotator_id, item_id)
);
CREATE INDEX winodict_servings_item ON winodict_servings (item_id);

-- A model's partial-scoring judgement of an item played with a word: where the
-- definition went ('empty': nowhere), how many solved items came first, and the
-- log-likelihood of the continuation after each option.
CREATE TABLE winodict_judgements (
    model_id TEXT NOT NULL REFERENCES models(id),
    item_id TEXT NOT NULL REFERENCES winodict_items(id),
    word TEXT NOT NULL CHECK (word IN ('original', 'invented', 'shifted')),
    teaching TEXT NOT NULL CHECK (teaching IN ('empty', 'suffix', 'prefix')),
    shots INTEGER NOT NULL,
    log_likelihood_a REAL NOT NULL,
    log_likelihood_b REAL NOT NULL,
    choice INTEGER NOT NULL CHECK (choice IN (0, 1)),
    PRIMARY KEY (model_id, item_id, word, teaching, shots)
);
