-- Next-word guessing, the "Shannon game" (002_07d3f5412720a88c.txt): a corpus
-- sentence revealed word by word; at each position people guess the next word, and
-- models give their whole-word predictions.

CREATE TABLE shannon_servings (
    id TEXT PRIMARY KEY,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    sentence_id BIGINT NOT NULL REFERENCES sentences(id),
    -- 'type': every guess typed; 'choose': a model's suggestions offered as well
    mode TEXT NOT NULL CHECK (mode IN ('type', 'choose')),
    served_at BIGINT NOT NULL,
    UNIQUE (annotator_id, sentence_id)
);
CREATE INDEX shannon_servings_sentence ON shannon_servings (sentence_id);

-- Position 1 is the sentence's second word (the first is shown).
CREATE TABLE shannon_guesses (
    serving_id TEXT NOT NULL REFERENCES shannon_servings(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    guess TEXT NOT NULL,
    word TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
    -- 1-based place in the suggestions when the guess was picked from them
    rank INTEGER,
    client_ms BIGINT,
    server_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (serving_id, position)
);

-- A model's whole-word predictions at each position of a sentence.
CREATE TABLE shannon_predictions (
    model_id TEXT NOT NULL REFERENCES models(id),
    sentence_id BIGINT NOT NULL REFERENCES sentences(id),
    position INTEGER NOT NULL,
    word TEXT NOT NULL,
    -- the top words, best first, separated by '|'
    top TEXT NOT NULL,
    -- log p(word | the text before it): the product of its pieces' probabilities
    word_log_prob DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (model_id, sentence_id, position)
);

-- What the analyses know of a word: its wordfreq Zipf frequency and its nearest
-- neighbours in a word-vector space (nearest first, '|'-separated), for soft match.
CREATE TABLE shannon_words (
    lang TEXT NOT NULL,
    word TEXT NOT NULL,
    zipf DOUBLE PRECISION,
    neighbours TEXT,
    PRIMARY KEY (lang, word)
);
