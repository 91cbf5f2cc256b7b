-- Every mode's tables carry the mode's name, as its route, page, api, store,
-- server and scorer modules do: guess (next word), define (definitions), new_words
-- (invented words), rate (the Likert ratings). Foreign keys follow the renames.
ALTER TABLE shannon_servings RENAME TO guess_servings;
ALTER TABLE shannon_guesses RENAME TO guess_answers;
ALTER TABLE shannon_predictions RENAME TO guess_predictions;
ALTER TABLE shannon_words RENAME TO guess_words;
ALTER TABLE definition_groups RENAME TO define_groups;
ALTER TABLE definition_servings RENAME TO define_servings;
ALTER TABLE definition_picks RENAME TO define_picks;
ALTER TABLE definition_scores RENAME TO define_scores;
ALTER TABLE winodict_items RENAME TO new_words_items;
ALTER TABLE winodict_variants RENAME TO new_words_variants;
ALTER TABLE winodict_servings RENAME TO new_words_servings;
ALTER TABLE winodict_judgements RENAME TO new_words_judgements;
ALTER TABLE likert_ratings RENAME TO rate_ratings;

-- A browser's time outside 1 ms ..= 1 h is not trusted in any mode: it is kept
-- apart, as the main game's answers.client_ms_reported keeps it.
ALTER TABLE guess_answers ADD COLUMN client_ms_reported BIGINT;
ALTER TABLE define_picks ADD COLUMN client_ms_reported BIGINT;
ALTER TABLE new_words_servings ADD COLUMN client_ms_reported BIGINT;
ALTER TABLE rate_ratings ADD COLUMN client_ms_reported BIGINT;
