-- Gapwise core schema (SQLite). The PostgreSQL twin lives in migrations/postgres.
-- Times are Unix milliseconds (BIGINT); booleans are 0/1 integers so that the
-- sqlx Any driver reads both backends the same way.

CREATE TABLE languages (
    code TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
INSERT INTO languages (code, name) VALUES
    ('en', 'English'), ('es', 'Español'), ('fr', 'Français'), ('it', 'Italiano'), ('ru', 'Русский');

CREATE TABLE sentences (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lang TEXT NOT NULL REFERENCES languages(code),
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    genre TEXT NOT NULL,
    UNIQUE (lang, text)
);

CREATE TABLE annotators (
    id TEXT PRIMARY KEY,
    pseudonym TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    consent_version TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE word_pairs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lang TEXT NOT NULL REFERENCES languages(code),
    target TEXT NOT NULL,
    distractor TEXT NOT NULL,
    -- lower-cased words in sorted order: pairs are order-insensitive
    pair_key TEXT NOT NULL,
    strategy TEXT NOT NULL CHECK (strategy IN ('a-priori', 'distributional', 'suggested')),
    creator_id TEXT REFERENCES annotators(id) ON DELETE SET NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
    created_at BIGINT NOT NULL,
    UNIQUE (lang, pair_key)
);

CREATE TABLE items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pair_id BIGINT NOT NULL REFERENCES word_pairs(id),
    k INTEGER NOT NULL CHECK (k IN (1, 3, 5)),
    created_at BIGINT NOT NULL
);
CREATE INDEX items_k ON items (k);

-- The ordered contexts of an item; blank_start/blank_end are byte offsets of the
-- one target occurrence that is blanked.
CREATE TABLE item_contexts (
    item_id BIGINT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    sentence_id BIGINT NOT NULL REFERENCES sentences(id),
    blank_start INTEGER NOT NULL,
    blank_end INTEGER NOT NULL,
    PRIMARY KEY (item_id, position)
);

CREATE TABLE sessions (
    -- SHA-256 of the cookie token, hex: a database leak does not leak sessions
    token_hash TEXT PRIMARY KEY,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    current_serving_id TEXT,
    created_at BIGINT NOT NULL
);

-- One row each time an item is shown to an annotator. Its id is the answer id the
-- client sends back, so a retried submit maps to the same answer.
CREATE TABLE servings (
    id TEXT PRIMARY KEY,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    item_id BIGINT NOT NULL REFERENCES items(id),
    k INTEGER NOT NULL,
    target_first INTEGER NOT NULL CHECK (target_first IN (0, 1)),
    served_at BIGINT NOT NULL,
    UNIQUE (annotator_id, item_id)
);

CREATE TABLE answers (
    id TEXT PRIMARY KEY REFERENCES servings(id) ON DELETE CASCADE,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    item_id BIGINT NOT NULL REFERENCES items(id),
    k INTEGER NOT NULL,
    chosen TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
    client_ms BIGINT,
    server_ms BIGINT NOT NULL,
    -- the two words in the order they were shown, separated by '|'
    option_order TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX answers_item ON answers (item_id);
CREATE INDEX answers_annotator ON answers (annotator_id);
