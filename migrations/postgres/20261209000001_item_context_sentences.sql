-- The sentences in items, looked up by the next-word and cloze games and the item
-- builder, which keep the sentences of items and those shown whole apart.
CREATE INDEX item_contexts_sentence ON item_contexts (sentence_id);
