-- Token revocation (SPEC §11): tokens issued before a user's last password change,
-- deactivation, reactivation, deletion or restore are refused with `Token has been
-- revoked`. tokens_valid_after is the millisecond of that change: a token whose iat
-- (ms) is at or before it is refused, unless its iat is kept_token_iat, the token with
-- which the user changed their own password (a user's tokens of one millisecond are
-- one token: the claims are exactly iss, sub, iat and exp). NULL: nothing revoked.
ALTER TABLE users ADD COLUMN tokens_valid_after INTEGER;
ALTER TABLE users ADD COLUMN kept_token_iat INTEGER;
