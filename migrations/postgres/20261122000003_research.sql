-- Researchers and admins (accounts created from the command line), their API
-- tokens for scripted export, and the random IDs that stand for people in exports.

CREATE TABLE staff (
    name TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('researcher', 'admin')),
    -- argon2id PHC string
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- SHA-256 of the token, hex; the token itself is shown once, when it is created.
CREATE TABLE api_tokens (
    token_hash TEXT PRIMARY KEY,
    staff_name TEXT NOT NULL REFERENCES staff(name) ON DELETE CASCADE,
    label TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- One random ID per annotator, made at their first export and reused by every later
-- one (so exports join), unrelated to the database id and to the public pseudonym.
CREATE TABLE export_pseudonyms (
    annotator_id TEXT PRIMARY KEY REFERENCES annotators(id) ON DELETE CASCADE,
    export_id TEXT NOT NULL UNIQUE
);
