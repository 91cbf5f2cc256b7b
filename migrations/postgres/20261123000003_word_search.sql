-- Whole-word search over the corpus: a GIN index of each sentence's words
-- (the 'simple' configuration: lower-cased, no stemming, no stop words).

CREATE INDEX sentences_words ON sentences USING GIN (to_tsvector('simple', text));
