-- OpenID Connect sign-in (issue 33, part 2). Kept in the file, not in memory, so that the
-- steps of one sign-in may be answered by different processes on the file (several
-- servers behind one proxy), as signed-out tokens are.
--
-- A sign-in under way: GET /v0/oidc/start made it, GET /v0/oidc/callback takes it (once).
-- The browser holds a random id in an HttpOnly cookie; the row is found by its hash, so
-- the file alone cannot finish anyone's sign-in. state, nonce and the PKCE verifier
-- never leave the server but state (in the provider's redirect, checked on return).
CREATE TABLE oidc_sign_ins (
  -- sha256 (hex) of the cookie's random id
  id_hash      TEXT PRIMARY KEY,
  state        TEXT NOT NULL,
  nonce        TEXT NOT NULL,
  verifier     TEXT NOT NULL,
  -- the redirect URI sent to the provider: the token request must send it again
  redirect_uri TEXT NOT NULL,
  -- the client address that began it: one address keeps at most a few under way, so a
  -- flood of GET /v0/oidc/start (no token needed) cannot grow the table without end
  client       TEXT NOT NULL,
  -- ms since the epoch; later rows count for nothing and are deleted as sign-ins come in
  expires_at   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX oidc_sign_ins_expiry ON oidc_sign_ins (expires_at);
CREATE INDEX oidc_sign_ins_client ON oidc_sign_ins (client, expires_at);

-- A finished sign-in's one-time code: the callback hands it to the web app (in the
-- address's fragment, never sent to a server), which exchanges it through POST
-- /v0/login {"auth": {"type": "oidc", "code": …}} for a token, once, within 60 s.
CREATE TABLE oidc_codes (
  -- sha256 (hex) of the code
  code_hash  TEXT PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (id),
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX oidc_codes_expiry ON oidc_codes (expires_at);
