-- Sessions that last while used (issue 34): POST /v0/login/renew exchanges a valid token
-- for a fresh one. A token's claims stay exactly TimeSync's (SPEC §2.3: iss, sub, iat,
-- exp), so the time of the sign-in a renewed token descends from is kept here, by the
-- token's user and iat (as signed_out_tokens names a token), and a renewal is refused
-- once --session-max has passed since that sign-in. A login's own token has no row: its
-- sign-in is its iat. A row is of use only until its token expires (expires_at, ms);
-- later ones are deleted as renewals come in.
CREATE TABLE renewed_tokens (
  user_id      INTEGER NOT NULL REFERENCES users (id),
  issued_at    INTEGER NOT NULL,
  signed_in_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (user_id, issued_at)
) STRICT, WITHOUT ROWID;
CREATE INDEX renewed_tokens_expiry ON renewed_tokens (expires_at);
