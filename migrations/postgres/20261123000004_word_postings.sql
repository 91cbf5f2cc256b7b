-- Whole-word search over the corpus: a word index built by the application as
-- sentences go in (store/src/db/postings.rs), the same on both backends. It replaces
-- the GIN index over to_tsvector('simple'), whose words did not follow the game's
-- whole-word rule. Sentences already present are indexed when the store opens.

DROP INDEX sentences_words;

CREATE TABLE word_postings (
    lang TEXT NOT NULL,
    word TEXT NOT NULL,
    -- the smallest sentence id of the row
    first_id BIGINT NOT NULL,
    -- how many ids the row holds
    n BIGINT NOT NULL,
    -- sorted sentence ids as LEB128 varints of their gaps
    ids BYTEA NOT NULL,
    PRIMARY KEY (lang, word, first_id)
);

-- Items of a pair (the admin pages count and list them).
CREATE INDEX items_pair ON items (pair_id);
