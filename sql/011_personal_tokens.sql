-- Personal API tokens (issue 33): named, long-lived tokens for scripts, used wherever a
-- TimeSync token is. The secret itself is never stored: only its SHA-256, by which a
-- presented token is found. A revoked token keeps its row (revoked_at), so that it is
-- refused with "Token has been revoked" rather than as unknown, and so that its name is
-- free again: names are unique among a user's unrevoked tokens, in any letter case.
CREATE TABLE personal_tokens (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users (id),
  name         TEXT NOT NULL,
  scope        TEXT NOT NULL CHECK (scope IN ('read', 'write')),
  -- sha256 (hex) of the whole token text (`tt_…`)
  secret_hash  TEXT NOT NULL UNIQUE,
  -- ms since the epoch
  created_at   INTEGER NOT NULL,
  -- ms: 00:00 UTC of the expiry date, from which on it is refused; NULL: never
  expires_at   INTEGER,
  -- ms, a whole minute: written at most once a minute, not on every request
  last_used_at INTEGER,
  revoked_at   INTEGER
) STRICT;
CREATE UNIQUE INDEX personal_tokens_live_name
  ON personal_tokens (user_id, name COLLATE NOCASE) WHERE revoked_at IS NULL;
