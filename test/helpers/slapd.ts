// Runs a throwaway OpenLDAP `slapd` for tests: a slapd.conf, an mdb database and the
// seed entries live in a temporary directory; the server listens on a free loopback
// port as the current user (no system service, no root-only paths).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { tempDir } from './server';

export const SUFFIX = 'dc=example,dc=org';
export const PEOPLE_BASE = `ou=people,${SUFFIX}`;
/** The service account used for the search bind (anonymous users may not search). */
export const READER = { dn: `cn=reader,ou=services,${SUFFIX}`, password: 'reader-secret-1' };

export interface Person {
  uid: string;
  password: string;
  cn: string;
  displayName?: string;
  mail?: string;
  /** RDN of the entry; defaults to uid=<uid>. */
  rdn?: string;
}

export const PEOPLE = {
  alice: {
    uid: 'alice',
    password: 'alice-ldap-pw',
    cn: 'Alice Liddell',
    displayName: 'Alice L.',
    mail: 'alice@example.org',
  },
  bob: { uid: 'bob', password: 'bob-ldap-pw', cn: 'Bob Builder', mail: 'not an email' },
  // Filter-special characters in a value: a search must match this entry only when
  // asked for exactly this value.
  star: { uid: 'star*user)', password: 'star-ldap-pw', cn: 'Star User', rdn: 'cn=Star User' },
} satisfies Record<string, Person>;

export interface Slapd {
  /** ldap://127.0.0.1:<port> */
  url: string;
  /** ldaps://127.0.0.1:<port>, with a certificate for 127.0.0.1 from a throwaway CA;
   * undefined without the openssl command. */
  ldapsUrl: string | undefined;
  /** PEM file of that CA (not trusted by anyone unless given, e.g. NODE_EXTRA_CA_CERTS). */
  caFile: string | undefined;
  /** Stops the server (the database stays; start() brings it back on the same port). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes/thaws the process: the port still accepts connections but nothing answers. */
  pause(): void;
  resume(): void;
}

/** A program on PATH or in the sbin directories (not on a user's PATH everywhere). */
function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs.map((d) => join(d, name)).find((p) => existsSync(p));
}

/** The slapd and slapadd binaries, or undefined when OpenLDAP is not installed. */
export function findSlapd(): { slapd: string; slapadd: string } | undefined {
  const slapd = findProgram('slapd');
  const slapadd = findProgram('slapadd');
  return slapd && slapadd ? { slapd, slapadd } : undefined;
}

export const hasOpenssl = () => findProgram('openssl') !== undefined;

export const INSTALL_HINT =
  'slapd is not installed; install it with `apt-get install slapd ldap-utils` to run the LDAP tests';

/** Starts slapd seeded with PEOPLE and READER; call stop() when done. */
export async function startSlapd(): Promise<Slapd> {
  const found = findSlapd();
  if (!found) throw new Error(INSTALL_HINT);
  const dir = tempDir('timetrack-slapd-');
  const bins = unconfined(found, dir);
  const dbDir = join(dir, 'db');
  mkdirSync(dbDir);
  const tls = makeCertificates(dir);
  const conf = join(dir, 'slapd.conf');
  writeFileSync(conf, slapdConf(dir, dbDir, tls));
  const ldif = join(dir, 'seed.ldif');
  writeFileSync(ldif, seedLdif());
  execFileSync(bins.slapadd, ['-f', conf, '-l', ldif], { stdio: 'pipe' });

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const tlsPort = tls ? await freePort() : undefined;
  const ldapsUrl = tlsPort ? `ldaps://127.0.0.1:${tlsPort}` : undefined;
  const listen = [`${url}/`, ...(ldapsUrl ? [`${ldapsUrl}/`] : [])].join(' ');
  let child: ChildProcess | undefined;
  let output = '';

  const start = async () => {
    if (child) return;
    output = '';
    const proc = spawn(bins.slapd, ['-f', conf, '-h', listen, '-d', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stdout?.on('data', (d) => (output += d));
    proc.stderr?.on('data', (d) => (output += d));
    proc.once('exit', () => {
      if (child === proc) child = undefined;
    });
    process.once('exit', () => proc.kill('SIGKILL'));
    for (const p of [port, tlsPort]) {
      if (p)
        await waitForPort(
          p,
          () => child === proc,
          () => output,
        );
    }
  };

  const stop = async () => {
    const proc = child;
    if (!proc) return;
    proc.kill('SIGCONT'); // a paused process would not handle SIGTERM
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return {
    url,
    ldapsUrl,
    caFile: tls?.ca,
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
  };
}

/**
 * Ubuntu's AppArmor profile for /usr/sbin/slapd forbids reading a config in a temporary
 * directory. Profiles attach by path, so a copy of the binary runs unconfined; slapd
 * and slapadd are one program that acts on its own name.
 */
function unconfined(bins: { slapd: string; slapadd: string }, dir: string) {
  if (!existsSync('/etc/apparmor.d/usr.sbin.slapd')) return bins;
  const copy = (from: string, name: string) => {
    const to = join(dir, name);
    copyFileSync(from, to);
    chmodSync(to, 0o755);
    return to;
  };
  return { slapd: copy(bins.slapd, 'slapd'), slapadd: copy(bins.slapadd, 'slapadd') };
}

interface Certificates {
  ca: string;
  cert: string;
  key: string;
}

/** A throwaway CA and a server certificate for 127.0.0.1 signed by it. */
function makeCertificates(dir: string): Certificates | undefined {
  const openssl = findProgram('openssl');
  if (!openssl) return undefined;
  const file = (name: string) => join(dir, name);
  // Arguments are separated by single spaces (none contains one).
  const run = (args: string) => execFileSync(openssl, args.split(' '), { stdio: 'pipe', cwd: dir });
  const ec = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2';
  run(
    `req -x509 ${ec} -keyout ca.key -out ca.pem -subj /CN=timetrack-test-ca ` +
      '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign',
  );
  run(`req ${ec} -keyout server.key -out server.csr -subj /CN=127.0.0.1`);
  writeFileSync(
    file('server.ext'),
    'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  run(
    'x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 ' +
      '-out server.pem -extfile server.ext',
  );
  return { ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key') };
}

function slapdConf(dir: string, dbDir: string, tls: Certificates | undefined): string {
  const schemaDir = ['/etc/ldap/schema', '/etc/openldap/schema', '/usr/local/etc/openldap/schema']
    .filter((d) => existsSync(join(d, 'core.schema')))
    .at(0);
  if (!schemaDir) throw new Error('cannot find the OpenLDAP schema files (core.schema)');
  // Debian builds the backends as modules; other builds may have mdb built in.
  const moduleDir = [
    '/usr/lib/ldap',
    '/usr/lib64/openldap',
    '/usr/lib/openldap',
    '/usr/libexec/openldap',
  ]
    .filter((d) => existsSync(join(d, 'back_mdb.so')))
    .at(0);
  return `${['core', 'cosine', 'inetorgperson'].map((s) => `include ${schemaDir}/${s}.schema`).join('\n')}
# Like many directories (Active Directory among them), accept a DN with an empty
# password as an anonymous bind: the client must refuse empty passwords itself.
allow bind_anon_dn
${tls ? `TLSCACertificateFile ${tls.ca}\nTLSCertificateFile ${tls.cert}\nTLSCertificateKeyFile ${tls.key}` : ''}
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
${moduleDir ? `modulepath ${moduleDir}\nmoduleload back_mdb` : ''}

database mdb
maxsize 10485760
suffix "${SUFFIX}"
rootdn "cn=admin,${SUFFIX}"
rootpw ${sshaHash(randomBytes(12).toString('hex'))}
directory ${dbDir}
# Passwords only serve to authenticate; anonymous clients can bind but not search,
# so a working search proves that the service bind was used.
access to attrs=userPassword
  by anonymous auth
  by * none
access to *
  by users read
  by anonymous auth
`;
}

function seedLdif(): string {
  const people = Object.values(PEOPLE as Record<string, Person>).map((p) =>
    [
      `dn: ${p.rdn ?? `uid=${p.uid}`},${PEOPLE_BASE}`,
      'objectClass: inetOrgPerson',
      `uid: ${p.uid}`,
      `cn: ${p.cn}`,
      `sn: ${p.cn.split(' ').at(-1)}`,
      p.displayName ? `displayName: ${p.displayName}` : '',
      p.mail ? `mail: ${p.mail}` : '',
      `userPassword: ${sshaHash(p.password)}`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example`,
    `dn: ${PEOPLE_BASE}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=services,${SUFFIX}\nobjectClass: organizationalUnit\nou: services`,
    `dn: ${READER.dn}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\nuserPassword: ${sshaHash(READER.password)}`,
    ...people,
  ].join('\n\n');
}

/** {SSHA}: base64(sha1(password + salt) + salt), as slappasswd writes it. */
function sshaHash(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, alive: () => boolean, output: () => string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`slapd exited on start: ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`slapd did not listen on port ${port} within 10 s: ${output()}`);
}
