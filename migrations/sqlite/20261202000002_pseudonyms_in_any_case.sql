-- Players find each other (and sign in) by pseudonym in any case: the lookups
-- compare LOWER(pseudonym), which this index serves.
CREATE INDEX annotators_pseudonym_lower ON annotators (LOWER(pseudonym));
