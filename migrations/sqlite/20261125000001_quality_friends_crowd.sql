-- Quality control (gold items, per-item redundancy), friends and challenges, and
-- crowd-platform studies (Prolific, MTurk) with their assignments.

-- A gold item's answer was verified by an admin: the contexts surely call for the
-- target. Gold items are served to everyone, beyond the per-item redundancy.
ALTER TABLE items ADD COLUMN gold INTEGER NOT NULL DEFAULT 0 CHECK (gold IN (0, 1));

-- Settings admins change at run time, by name (see gapwise_store::Setting).
CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);

-- A player follows another by pseudonym; the friend's proposed pairs are served first.
CREATE TABLE friends (
    annotator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    friend_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (annotator_id, friend_id)
);
CREATE INDEX friends_friend ON friends (friend_id);

-- Ten items that a player and a friend both play, to compare.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    creator_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    opponent_id TEXT NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
    k INTEGER NOT NULL CHECK (k IN (1, 3, 5)),
    lang TEXT NOT NULL REFERENCES languages(code),
    created_at BIGINT NOT NULL
);
CREATE INDEX challenges_creator ON challenges (creator_id);
CREATE INDEX challenges_opponent ON challenges (opponent_id);

CREATE TABLE challenge_items (
    challenge_id TEXT NOT NULL REFERENCES challenges(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    item_id BIGINT NOT NULL REFERENCES items(id),
    PRIMARY KEY (challenge_id, position)
);

-- A study on a crowd platform: participants arrive at /crowd/<id> with the
-- platform's ids, answer items_target items, and are sent back with the code.
CREATE TABLE crowd_studies (
    id TEXT PRIMARY KEY,
    platform TEXT NOT NULL CHECK (platform IN ('prolific', 'mturk')),
    name TEXT NOT NULL,
    k INTEGER NOT NULL CHECK (k IN (1, 3, 5)),
    lang TEXT NOT NULL REFERENCES languages(code),
    items_target INTEGER NOT NULL CHECK (items_target > 0),
    -- an assignment idle this long is abandoned and its items are freed
    max_minutes INTEGER NOT NULL CHECK (max_minutes > 0),
    completion_code TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- One participant's work on a study: its own pseudonymous annotator.
CREATE TABLE crowd_assignments (
    id TEXT PRIMARY KEY,
    study_id TEXT NOT NULL REFERENCES crowd_studies(id),
    annotator_id TEXT NOT NULL UNIQUE REFERENCES annotators(id) ON DELETE CASCADE,
    -- the platform's ids, needed to pay the participant: never exported
    participant_id TEXT NOT NULL,
    platform_session_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'returned', 'abandoned')),
    started_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    ended_at BIGINT,
    UNIQUE (study_id, participant_id)
);
CREATE INDEX crowd_assignments_status ON crowd_assignments (status);

-- How many hold an item (answers and live reservations) is counted per serving.
CREATE INDEX servings_item ON servings (item_id);
