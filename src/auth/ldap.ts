// LDAP login (SPEC §2.2): find the user's entry (with the service account when one is
// configured), bind as that entry with the given password, then map it to a local user,
// creating a plain one on first login when TIMETRACK_LDAP_AUTO_CREATE is on.

import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { Client, type Entry, EqualityFilter, ResultCodeError } from 'ldapts';
import type { LdapConfig } from '../config';
import { type Db, writeTransaction } from '../db/open';
import { authenticationFailure } from '../errors';
import { isNewUsername } from '../identifiers';
import type { Logger } from '../log';
import { registerUser } from '../users/register';
import type { UserStore } from '../users/store';
import { isEmail } from '../validate';
import type { Authenticator } from './login';

export const DIRECTORY_UNREACHABLE = 'The directory server could not be reached';
export const DIRECTORY_FAILED = 'The directory server refused the search; see the server log';

/** Connect and per-operation limit: a dead or stalled directory fails a login, never hangs it. */
const TIMEOUT_MS = 5000;
const DISPLAY_NAME_MAX = 255;

interface DirectoryPerson {
  /** The username as the directory spells it. */
  username: string | undefined;
  displayName: string | undefined;
  email: string | undefined;
}

export function ldapAuthenticator(deps: {
  ldap: LdapConfig;
  db: Db;
  users: UserStore;
  log: Logger;
}): Authenticator {
  const { ldap, db, users, log } = deps;
  const { url, searchBase } = ldap;
  if (!url || !searchBase) throw new Error('LDAP login needs a URL and a search base');
  const directory = { ...ldap, url, searchBase };

  /** The local user for a verified directory person, created on first login if allowed. */
  const localUser = (username: string, person: DirectoryPerson): string | undefined => {
    const existing = users.findByUsername(username);
    if (existing) {
      if (existing.active === 1 && existing.deleted_at === null) return existing.username;
      log.info('ldap login refused: local user inactive or deleted', { username });
      return undefined;
    }
    const name =
      person.username?.toLowerCase() === username.toLowerCase() ? person.username : username;
    if (!ldap.autoCreate || !isNewUsername(name)) {
      log.info('ldap login refused: no local user', { username });
      return undefined;
    }
    return writeTransaction(db, () => {
      // Another login may have created it since the read above.
      const raced = users.findByUsername(name);
      if (raced)
        return raced.active === 1 && raced.deleted_at === null ? raced.username : undefined;
      const fields = { display_name: person.displayName ?? null, email: person.email ?? null };
      registerUser(db, users, { username: name, fields });
      log.info('ldap login created a local user', { username: name });
      return name;
    });
  };

  return async (username, password) => {
    // An empty password would be an unauthenticated bind, which servers report as success.
    if (password === '') return undefined;
    const person = await verifyInDirectory(directory, username, password, log);
    return person ? localUser(username, person) : undefined;
  };
}

/**
 * The directory entry whose username attribute equals `username`, if `password` binds
 * as it; undefined for no entry, several entries or a refused bind. A directory that
 * cannot be reached or fails the search throws kind 7 saying so.
 */
async function verifyInDirectory(
  ldap: LdapConfig & { url: string; searchBase: string },
  username: string,
  password: string,
  log: Logger,
): Promise<DirectoryPerson | undefined> {
  const client = new Client({
    url: ldap.url,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    // ldapts speaks TLS whenever tlsOptions are given, so only for ldaps://.
    ...(/^ldaps:/i.test(ldap.url) ? { tlsOptions: { secureContext: trustedCertificates() } } : {}),
  });
  try {
    let entries: Entry[];
    try {
      // Before any bind, so that no password crosses the network in the clear. The
      // certificate is checked against the URL's host (tls would assume localhost).
      if (ldap.startTls) {
        const host = new URL(ldap.url).hostname.replace(/^\[|\]$/g, '');
        await client.startTLS({ secureContext: trustedCertificates(), host });
      }
      if (ldap.bindDn) await client.bind(ldap.bindDn, ldap.bindPassword ?? '');
      ({ searchEntries: entries } = await client.search(ldap.searchBase, {
        scope: 'sub',
        // A filter object is sent as BER: the value is never parsed as filter syntax,
        // so `*`, `(`, `)`, `\` and NUL in a username match only themselves.
        filter: new EqualityFilter({ attribute: ldap.usernameAttribute, value: username }),
        attributes: [ldap.usernameAttribute, 'displayName', 'cn', 'mail'],
        timeLimit: TIMEOUT_MS / 1000,
      }));
    } catch (err) {
      throw directoryFailure(err, log);
    }
    const entry = entries[0];
    if (entries.length !== 1 || !entry) {
      log.info('ldap login refused: no single directory entry', {
        username,
        found: entries.length,
      });
      return undefined;
    }
    try {
      await client.bind(entry.dn, password);
    } catch (err) {
      // Wrong password (49), but also accounts the directory has locked or expired.
      if (err instanceof ResultCodeError) {
        log.info('ldap login refused: bind failed', { username, reason: err.message.trim() });
        return undefined;
      }
      throw directoryFailure(err, log);
    }
    return toPerson(entry, ldap.usernameAttribute);
  } finally {
    await client.unbind().catch(() => {});
  }
}

/** Where distributions keep the system's CA bundle (Debian/Ubuntu, Fedora/RHEL, Alpine). */
const SYSTEM_CA_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
];
let trusted: SecureContext | undefined;

/**
 * Node's own CA list plus the system bundle and NODE_EXTRA_CA_CERTS, so that a directory
 * certificate from an in-house CA installed with update-ca-certificates is accepted.
 * (Node 20 ignores the system store; an explicit CA list also drops the extra file.)
 */
function trustedCertificates(): SecureContext {
  if (!trusted) {
    const system = SYSTEM_CA_BUNDLES.map(readIfPresent).find((pem) => pem !== undefined);
    const extra = readIfPresent(process.env.NODE_EXTRA_CA_CERTS);
    const ca = [...rootCertificates, system, extra].filter((pem): pem is string => !!pem);
    trusted = createSecureContext({ ca });
  }
  return trusted;
}

function readIfPresent(file: string | undefined): string | undefined {
  try {
    return file ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** kind 7 naming the problem; the details go to the log, not to the client. */
function directoryFailure(err: unknown, log: Logger) {
  const reason = err instanceof Error ? err.message.trim() : String(err);
  if (err instanceof ResultCodeError) {
    log.error('ldap search failed', { code: err.code, reason });
    return authenticationFailure(DIRECTORY_FAILED);
  }
  log.error('ldap directory unreachable', { reason });
  return authenticationFailure(DIRECTORY_UNREACHABLE);
}

function toPerson(entry: Entry, usernameAttribute: string): DirectoryPerson {
  const displayName = attribute(entry, 'displayName') ?? attribute(entry, 'cn');
  const email = attribute(entry, 'mail');
  return {
    username: attribute(entry, usernameAttribute),
    displayName: displayName?.slice(0, DISPLAY_NAME_MAX),
    email: email !== undefined && isEmail(email) ? email : undefined,
  };
}

/**
 * The first non-empty text value of an attribute; names are case-insensitive in LDAP,
 * and ldapts gives a string, a list or Buffers.
 */
function attribute(entry: Entry, name: string): string | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) {
    const text = Buffer.isBuffer(v) ? v.toString('utf8') : v;
    if (typeof text === 'string' && text.trim() !== '') return text.trim();
  }
  return undefined;
}
