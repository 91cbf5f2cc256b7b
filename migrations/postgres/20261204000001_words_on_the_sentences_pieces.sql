-- A word's log-probabilities are taken from the sentence's own pieces: a word that a
-- piece shares with the text beside it (GPT-2's 't in "Isn't") has none, and
-- word_unscored says why.
ALTER TABLE guess_predictions ALTER COLUMN word_log_prob DROP NOT NULL;
ALTER TABLE guess_predictions ADD COLUMN word_unscored TEXT;
ALTER TABLE guess_predictions ADD CONSTRAINT guess_predictions_scored_or_why
    CHECK ((word_log_prob IS NULL) = (word_unscored IS NOT NULL));
