-- A word's own log-probability beside the sum over its pieces (Pimentel & Meister
-- 2024): the sum, plus log P(the next piece ends the word), minus log P(the next
-- piece ends the word before). Empty for predictions stored before it existed.
ALTER TABLE guess_predictions ADD COLUMN word_log_prob_corrected REAL;
