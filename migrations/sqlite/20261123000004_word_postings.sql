-- Whole-word search over the corpus: a word index built by the application as
-- sentences go in (store/src/db/postings.rs), the same on both backends. It replaces
-- the FTS5 index, whose upkeep was most of the time of a large corpus import.
-- Sentences already present are indexed when the store opens. WITHOUT ROWID: the key
-- is the table, so a row is written once, not to a table and to an index.

DROP TRIGGER sentences_fts_insert;
DROP TRIGGER sentences_fts_delete;
DROP TRIGGER sentences_fts_update;
DROP TABLE sentences_fts;

CREATE TABLE word_postings (
    lang TEXT NOT NULL,
    word TEXT NOT NULL,
    -- the smallest sentence id of the row
    first_id INTEGER NOT NULL,
    -- how many ids the row holds
    n INTEGER NOT NULL,
    -- sorted sentence ids as LEB128 varints of their gaps
    ids BLOB NOT NULL,
    PRIMARY KEY (lang, word, first_id)
) WITHOUT ROWID;

-- Items of a pair (the admin pages count and list them).
CREATE INDEX items_pair ON items (pair_id);
