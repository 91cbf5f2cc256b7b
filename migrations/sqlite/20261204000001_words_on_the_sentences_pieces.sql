-- A word's log-probabilities are taken from the sentence's own pieces: a word that a
-- piece shares with the text beside it (GPT-2's 't in "Isn't") has none, and
-- word_unscored says why. SQLite cannot drop NOT NULL in place, so the table is
-- made anew with its rows.
CREATE TABLE guess_predictions_new (
    model_id TEXT NOT NULL REFERENCES models(id),
    sentence_id BIGINT NOT NULL REFERENCES sentences(id),
    position INTEGER NOT NULL,
    word TEXT NOT NULL,
    -- the top words, best first, separated by '|'
    top TEXT NOT NULL,
    -- log p(word | the text before it): the sum over its pieces' log-probabilities
    word_log_prob REAL,
    -- the word's own (Pimentel & Meister 2024, as minicons' bow_correction)
    word_log_prob_corrected REAL,
    -- why the word has no log-probability; NULL when it has one
    word_unscored TEXT,
    PRIMARY KEY (model_id, sentence_id, position),
    CHECK ((word_log_prob IS NULL) = (word_unscored IS NOT NULL))
);
INSERT INTO guess_predictions_new (model_id, sentence_id, position, word, top, word_log_prob, word_log_prob_corrected)
    SELECT model_id, sentence_id, position, word, top, word_log_prob, word_log_prob_corrected FROM guess_predictions;
DROP TABLE guess_predictions;
ALTER TABLE guess_predictions_new RENAME TO guess_predictions;
