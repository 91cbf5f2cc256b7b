-- The word-definition game (W2D and D2W, 001_bf5d15b61b58df06.txt) on WordNet 3.0:
-- noun and verb synsets, their hypernym links, and the synset groups G(t) (the
-- items: one per target, its members are the hyponyms of its hypernyms).

CREATE TABLE wordnet_synsets (
    -- NLTK-style name, e.g. beckon.v.01
    id TEXT PRIMARY KEY,
    pos TEXT NOT NULL CHECK (pos IN ('n', 'v')),
    -- the paper's string form: "warm up" for warm_up.v.04
    word TEXT NOT NULL,
    definition TEXT NOT NULL,
    -- shortest hypernym path to a root (entity.n.01 is 0)
    depth INTEGER NOT NULL,
    -- wordfreq Zipf frequency of the word; NULL when not known or not imported
    zipf REAL
);

CREATE TABLE wordnet_hypernyms (
    child TEXT NOT NULL REFERENCES wordnet_synsets(id),
    parent TEXT NOT NULL REFERENCES wordnet_synsets(id),
    PRIMARY KEY (child, parent)
);
CREATE INDEX wordnet_hypernyms_parent ON wordnet_hypernyms (parent);

CREATE TABLE definition_groups (
    target TEXT PRIMARY KEY REFERENCES wordnet_synsets(id),
    size INTEGER NOT NULL
);
CREATE INDEX definition_groups_size ON definition_groups (size);

-- A group shown to a player for one task, with its candidates in the order shown.
CREATE TABLE definition_servings (
    id TEXT PRIMARY KEY,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    target TEXT NOT NULL REFERENCES definition_groups(target),
    task TEXT NOT NULL CHECK (task IN ('w2d', 'd2w')),
    -- synset ids separated by '|'
    candidates TEXT NOT NULL,
    served_at BIGINT NOT NULL,
    UNIQUE (annotator_id, target, task)
);

-- The player's picks, in order, until the right one: the number of picks is the
-- rank k of the correct candidate in the player's ranking.
CREATE TABLE definition_picks (
    serving_id TEXT NOT NULL REFERENCES definition_servings(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    chosen TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
    client_ms BIGINT,
    server_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (serving_id, attempt),
    UNIQUE (serving_id, chosen)
);

-- A model's score of every candidate of a group, per task (higher ranks first).
CREATE TABLE definition_scores (
    model_id TEXT NOT NULL REFERENCES models(id),
    task TEXT NOT NULL CHECK (task IN ('w2d', 'd2w')),
    target TEXT NOT NULL REFERENCES definition_groups(target),
    candidate TEXT NOT NULL REFERENCES wordnet_synsets(id),
    score REAL NOT NULL,
    PRIMARY KEY (model_id, task, target, candidate)
);
