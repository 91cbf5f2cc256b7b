-- Sign-in sessions of researchers and admins (the research pages), and the Likert
-- variant of Section 6: single-context items rated on a five-point scale.

-- SHA-256 of the cookie token, hex, as for player sessions.
CREATE TABLE staff_sessions (
    token_hash TEXT PRIMARY KEY,
    staff_name TEXT NOT NULL REFERENCES staff(name) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);

-- 'choice': the game's two-button items; 'likert': one model-selected context
-- rated from 1 (surely the target) to 5 (surely the distractor).
ALTER TABLE items ADD COLUMN kind TEXT NOT NULL DEFAULT 'choice' CHECK (kind IN ('choice', 'likert'));

CREATE TABLE likert_ratings (
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    item_id BIGINT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    client_ms BIGINT,
    server_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (annotator_id, item_id)
);
CREATE INDEX likert_ratings_item ON likert_ratings (item_id);
