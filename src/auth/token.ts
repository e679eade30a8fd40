// Tokens of SPEC §2.3: HS512 compact JWS whose header and payload segments are valid
// base64url and padded standard base64 at once, with iat/exp in milliseconds. Real
// TimeSync clients decode the payload with a padded standard base64 decoder and read
// `exp` as milliseconds, so both properties matter.
import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { authenticationFailure } from '../errors';

const ALGORITHM = 'HS512';

/** Verified tokens remembered at most: a few per user of a team of hundreds. */
const MAX_VERIFIED = 10_000;

export interface TokenClaims {
  iss: string;
  sub: string;
  iat: number;
  exp: number;
}

/**
 * JSON that base64-encodes to the same text in both alphabets: escaping `>`, `?`, `~`,
 * DEL and all non-ASCII keeps every 6-bit group below 62, and padding with spaces to a
 * multiple of 3 bytes means no `=` is needed.
 */
export function base64SafeJson(value: unknown): string {
  let json = JSON.stringify(value).replace(
    /[>?~\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  while (json.length % 3 !== 0) json += ' ';
  return json;
}

/** What a valid token says: who (`sub`), when it was issued and when it expires (ms). */
export interface VerifiedToken {
  readonly username: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export interface TokenService {
  /** A token of `username`; `expiresAt` (ms) for a renewed one, else now + the TTL. */
  issue(username: string, now?: number, expiresAt?: number): string;
  /** The claims of a valid token; kind 7 otherwise. */
  verify(token: string, now?: number): VerifiedToken;
}

export function createTokenService(options: {
  secretKey: string;
  instanceName: string;
  ttlSeconds: number;
}): TokenService {
  // A KeyObject made once: given a Buffer, jsonwebtoken first tries to parse it as a
  // public key on every call (~1 ms, 50x the HMAC itself).
  const key = createSecretKey(Buffer.from(options.secretKey, 'utf8'));
  const invalid = () => authenticationFailure('Invalid token');
  // What a token says depends only on its text and this process's key, so a token that
  // verified once need not be checked again (HMAC-SHA512 and a JSON parse per request);
  // its expiry still is, on every use. Bounded: forgotten all at once when full.
  // The remembered object itself is answered (read-only): nothing to copy per request.
  const verified = new Map<string, VerifiedToken>();
  const expiring = (claims: VerifiedToken, now: number): VerifiedToken => {
    if (claims.expiresAt <= now) throw authenticationFailure('Token has expired');
    return claims;
  };
  return {
    issue(username, now = Date.now(), expiresAt = now + options.ttlSeconds * 1000) {
      const claims: TokenClaims = {
        iss: options.instanceName,
        sub: username,
        iat: now,
        exp: expiresAt,
      };
      // A string payload is signed as given; jsonwebtoken cannot pad an object.
      return jwt.sign(base64SafeJson(claims), key, {
        algorithm: ALGORITHM,
        header: { alg: ALGORITHM, typ: 'JWT' },
      });
    },
    verify(token, now = Date.now()) {
      const known = verified.get(token);
      if (known) return expiring(known, now);
      let claims: Partial<TokenClaims>;
      try {
        // exp is in milliseconds, which jsonwebtoken would read as seconds: we check it.
        const decoded = jwt.verify(token, key, { algorithms: [ALGORITHM], ignoreExpiration: true });
        const parsed: unknown = typeof decoded === 'string' ? JSON.parse(decoded) : decoded;
        // A signed `null` payload parses too; reading claims from it would be a 500.
        if (typeof parsed !== 'object' || parsed === null) throw invalid();
        claims = parsed as Partial<TokenClaims>;
      } catch {
        throw invalid();
      }
      const { iss, sub, iat, exp } = claims;
      // iat decides revocation (auth/session.ts); every token we issue has one.
      if (iss !== options.instanceName || typeof sub !== 'string' || !Number.isFinite(iat)) {
        throw invalid();
      }
      if (typeof exp !== 'number') throw authenticationFailure('Token has expired');
      const checked: VerifiedToken = { username: sub, issuedAt: iat as number, expiresAt: exp };
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(token, checked);
      return expiring(checked, now);
    },
  };
}
