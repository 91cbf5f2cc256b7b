-- Whole-word search over the corpus: an FTS5 index of the sentences (Unicode-aware,
-- case-insensitive, accents kept), kept up to date by triggers. It records which
-- sentences hold a token, not where (detail = none): smaller and faster to build;
-- the exact whole-word check happens in Rust.

CREATE VIRTUAL TABLE sentences_fts USING fts5(
    text, content = 'sentences', content_rowid = 'id', detail = none, columnsize = 0,
    tokenize = 'unicode61 remove_diacritics 0'
);
INSERT INTO sentences_fts (sentences_fts) VALUES ('rebuild');

CREATE TRIGGER sentences_fts_insert AFTER INSERT ON sentences BEGIN
    INSERT INTO sentences_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER sentences_fts_delete AFTER DELETE ON sentences BEGIN
    INSERT INTO sentences_fts (sentences_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER sentences_fts_update AFTER UPDATE ON sentences BEGIN
    INSERT INTO sentences_fts (sentences_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO sentences_fts (rowid, text) VALUES (new.id, new.text);
END;
