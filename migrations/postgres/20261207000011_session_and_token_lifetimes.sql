-- Staff sessions and API tokens end on the server (OWASP ASVS 3.3): a staff session
-- after 2 hours without a request or 12 hours after sign-in, whatever its cookie
-- says; an API token at the time it was made to expire. A player session ends 365
-- days after it was opened (its created_at), as its cookie does.

-- When the staff session last made a request (Unix ms); those open now start from
-- their sign-in.
ALTER TABLE staff_sessions ADD COLUMN last_seen_at BIGINT NOT NULL DEFAULT 0;
UPDATE staff_sessions SET last_seen_at = created_at;

-- When the token stops working (Unix ms); tokens made before this never expired and
-- now expire 90 days after the upgrade, the default lifetime of a new one.
ALTER TABLE api_tokens ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0;
UPDATE api_tokens SET expires_at = CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT) + 90 * 86400000::BIGINT;

-- the clean-up of expired sessions finds them by age
CREATE INDEX sessions_by_age ON sessions (created_at);
