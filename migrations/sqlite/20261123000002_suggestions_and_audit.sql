-- Word pairs proposed by players, waiting for an admin's decision, and the audit
-- log of every change staff make.

CREATE TABLE pair_suggestions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lang TEXT NOT NULL REFERENCES languages(code),
    target TEXT NOT NULL,
    distractor TEXT NOT NULL,
    -- lower-cased words in sorted order, as in word_pairs
    pair_key TEXT NOT NULL,
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    -- why it was rejected, or how it was edited
    reason TEXT,
    pair_id BIGINT REFERENCES word_pairs(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    decided_at BIGINT
);
CREATE INDEX pair_suggestions_status ON pair_suggestions (status);
CREATE INDEX pair_suggestions_annotator ON pair_suggestions (annotator_id);

-- Who did what, when: one row per change made by a staff member.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    staff_name TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
