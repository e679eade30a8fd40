-- Sign-out (issue 29, item 6): POST /v0/logout ends the one token it is sent with. A
-- user's tokens of one millisecond are one token (the claims are exactly iss, sub, iat
-- and exp), so the user and the token's iat (ms) name it. A row is of use only until the
-- token expires (expires_at, its exp in ms); later ones are deleted as sign-outs come in.
-- Kept here, not in memory, so that every process on the file refuses the token.
CREATE TABLE signed_out_tokens (
  user_id    INTEGER NOT NULL REFERENCES users (id),
  issued_at  INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, issued_at)
) STRICT, WITHOUT ROWID;
CREATE INDEX signed_out_tokens_expiry ON signed_out_tokens (expires_at);

-- Idempotency keys (issue 29, item 7): a POST that creates or changes something, sent
-- with an `Idempotency-Key` header, is answered once; the same key from the same user
-- within 24 h gets that first answer again. A key is claimed (status NULL) in a write
-- transaction before its request runs, so of two requests with one key, in one process
-- or two, only the first runs; its answer is stored once it is known. Rows older than
-- 24 h count for nothing and are deleted as keys come in.
CREATE TABLE idempotency_keys (
  user_id     INTEGER NOT NULL REFERENCES users (id),
  key         TEXT NOT NULL,
  -- sha256 (hex) of the method, path, query and body (without its `auth` block)
  fingerprint TEXT NOT NULL,
  -- ms since the epoch: when the key was first used
  created_at  INTEGER NOT NULL,
  -- the first answer: NULL while it is being made
  status      INTEGER,
  -- JSON object of the answer's own headers beyond Content-Type (an error's Allow)
  headers     TEXT,
  body        TEXT,
  PRIMARY KEY (user_id, key)
) STRICT;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (created_at);
