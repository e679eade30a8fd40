// The authorization matrix of SPEC §3: every row of test/helpers/permissions-table.ts ×
// every actor, against a real server, with the exact kind 9 (or kind 7) text. The same
// table generates docs/permissions.md; a test keeps the file in step with it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTokenService } from '../../../src/auth/token';
import { weekDates } from '../../../src/dates';
import type { Query, Reply } from '../../helpers/api';
import { authenticationBody, authorizationBody } from '../../helpers/errors';
import { createUser } from '../../helpers/factories';
import {
  ACTOR_NAMES,
  type ActorName,
  permissionsMarkdown,
  RULES,
  type Rule,
  refusalOf,
  UNAUTHENTICATED,
  type UnauthenticatedName,
} from '../../helpers/permissions-table';
import { bcryptHash, startTestServer, type TestServer } from '../../helpers/server';

const SECRET = 'test-secret-key-that-is-long-enough-0123456789'; // startTestServer's key

interface Request {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  body?: unknown;
  /** Names filling the {slug}/{uuid}/{username} of the refusal text. */
  names?: Record<string, string>;
  /** Query parameters of a GET or DELETE (besides the token). */
  query?: Query;
  /** For list rows: the uuid (reports: username) that should (or should not) be listed. */
  listed?: string;
  /** What a list answer lists: uuids of times by default. */
  keys?: (body: any) => string[];
  /** A file sent as the body (POST /v0/imports), its token in the Authorization header. */
  file?: string;
}

describe('authorization matrix (SPEC §3)', () => {
  let server: TestServer;
  let admin: string;
  /** A login token of `owner`, a user whose personal tokens others try to revoke. */
  let ownerToken: string;
  const tokens = {} as Record<ActorName | UnauthenticatedName, string | undefined>;
  const times = {} as Record<'member' | 'member2' | 'qmember', string>;
  let seq = 0;
  const fresh = (prefix: string) => `${prefix}-${++seq}`;

  const ok = (res: Reply, what: string) => {
    assert.equal(res.status, 200, `${what}: ${res.text}`);
    return res.body as any;
  };
  const P_USERS = {
    projmgr: { manager: true },
    member: { member: true },
    member2: { member: true },
    spectator: { spectator: true },
  };
  const Q_USERS = { qmember: { member: true } };
  const newProject = async (users: object) => {
    const slug = fresh('proj');
    ok(await server.api.post('/projects', admin, { name: slug, slugs: [slug], users }), slug);
    return slug;
  };
  const newTime = async (user: string, project: string) =>
    ok(
      await server.api.post('/times', admin, {
        duration: 600,
        user,
        project,
        activities: ['act'],
        date_worked: '2026-04-01',
      }),
      `time of ${user}`,
    ).uuid as string;

  before(async () => {
    server = await startTestServer();
    admin = server.adminToken;
    const api = server.api;
    tokens.admin = admin;
    const flags: Partial<Record<string, object>> = {
      sitemgr: { site_manager: true },
      sitespec: { site_spectator: true },
    };
    for (const name of [...ACTOR_NAMES.filter((a) => a !== 'admin'), 'inactive', 'deleted']) {
      const user = await createUser(server, { username: name, ...flags[name] });
      if (name in tokens || ACTOR_NAMES.includes(name as ActorName) || name in UNAUTHENTICATED) {
        tokens[name as ActorName] = user.token;
      }
    }
    for (const name of ['member2', 'qmember', 'target']) {
      ok(await api.post('/users', admin, { username: name, password: bcryptHash(name) }), name);
    }
    ownerToken = (await createUser(server, { username: 'owner' })).token;
    ok(await api.post('/users/inactive', admin, { active: false }), 'deactivate');
    ok(await api.del('/users/deleted', admin), 'delete');
    tokens.none = undefined;
    tokens.expired = createTokenService({
      secretKey: SECRET,
      instanceName: 'timesync',
      ttlSeconds: 1800,
    }).issue('member', Date.now() - 3_600_000);
    ok(await api.post('/activities', admin, { name: 'Act', slug: 'act' }), 'activity');
    ok(await api.post('/users/org-roles', admin, { name: 'Role', slug: 'role' }), 'role');
    ok(await api.post('/projects', admin, { name: 'P', slugs: ['p'], users: P_USERS }), 'P');
    ok(await api.post('/projects', admin, { name: 'Q', slugs: ['q'], users: Q_USERS }), 'Q');
    times.member = await newTime('member', 'p');
    times.member2 = await newTime('member2', 'p');
    times.qmember = await newTime('qmember', 'q');
    const everyone = Object.fromEntries(ACTOR_NAMES.map((a) => [a, { member: true }]));
    ok(await api.post('/projects', admin, { name: 'T', slugs: ['t'], users: everyone }), 'T');
    const R_USERS = { othermgr: { manager: true } };
    ok(await api.post('/projects', admin, { name: 'R', slugs: ['r'], users: R_USERS }), 'R');
  });

  // Week parts (issue 32): each request gets a week of its own, from 2031-W01 on.
  let weeks = 0;
  const freshWeek = () => {
    const k = weeks++;
    const week = `${2031 + Math.floor(k / 52)}-W${String((k % 52) + 1).padStart(2, '0')}`;
    return { week, date: weekDates(week).first };
  };
  /** A fresh week with an entry of `user` in `project`, submitted unless told otherwise. */
  async function weekOf(user: string, project: string, then: 'open' | 'submit' | 'approve') {
    const { week, date } = freshWeek();
    const object = { duration: 60, user, project, activities: ['act'], date_worked: date };
    ok(await server.api.post('/times', admin, object), `time of ${user}`);
    if (then !== 'open')
      ok(await server.api.post(`/weeks/${user}/${week}/submit`, admin, {}), week);
    if (then === 'approve') {
      const path = `/approvals/${user}/${week}/${project}/approve`;
      ok(await server.api.post(path, admin, {}), `approve ${week}`);
    }
    return week;
  }

  let member2Token: string | undefined;
  /** A fresh running timer of `name`'s in `project` (member2's password is its name). */
  async function runTimer(name: string, project: string) {
    if (name === 'member2') member2Token ??= await server.api.login('member2', 'member2');
    const token = name === 'member2' ? member2Token : tokens[name as ActorName];
    await server.api.del('/timer', token); // none running is fine
    const started = await server.api.post('/timer', token, { project, activities: ['act'] });
    ok(started, `timer of ${name}`);
  }
  after(() => server.close());

  /** The request of a rule, made for one caller; creates fresh targets for deletes. */
  async function requestFor(rule: Rule, caller: string): Promise<Request> {
    switch (rule.id) {
      case 'projects.list':
        return { method: 'GET', path: '/projects' };
      case 'projects.get':
        return { method: 'GET', path: '/projects/p' };
      case 'projects.history': {
        const { uuid } = ok(await server.api.get('/projects/p', admin), 'P');
        return { method: 'GET', path: `/projects/${uuid}/history` };
      }
      case 'projects.create': {
        const slug = fresh('new');
        return { method: 'POST', path: '/projects', body: { name: slug, slugs: [slug] } };
      }
      case 'projects.update.own':
        return {
          method: 'POST',
          path: '/projects/p',
          body: { name: fresh('P'), users: P_USERS },
          names: { slug: 'p' },
        };
      case 'projects.update.other':
        return {
          method: 'POST',
          path: '/projects/q',
          body: { name: fresh('Q') },
          names: { slug: 'q' },
        };
      case 'projects.delete.own':
      case 'projects.delete.other': {
        const slug = await newProject(rule.id.endsWith('own') ? P_USERS : Q_USERS);
        return { method: 'DELETE', path: `/projects/${slug}`, names: { slug } };
      }
      case 'projects.restore.own':
      case 'projects.restore.other': {
        const slug = await newProject(rule.id.endsWith('own') ? P_USERS : Q_USERS);
        const { uuid } = ok(await server.api.get(`/projects/${slug}`, admin), slug);
        ok(await server.api.del(`/projects/${slug}`, admin), `delete ${slug}`);
        return { method: 'POST', path: `/projects/${uuid}/restore`, body: {}, names: { uuid } };
      }
      case 'activities.list':
        return { method: 'GET', path: '/activities' };
      case 'activities.get':
        return { method: 'GET', path: '/activities/act' };
      case 'activities.history': {
        const { uuid } = ok(await server.api.get('/activities/act', admin), 'act');
        return { method: 'GET', path: `/activities/${uuid}/history` };
      }
      case 'activities.create': {
        const slug = fresh('act');
        return { method: 'POST', path: '/activities', body: { name: slug, slug } };
      }
      case 'activities.update':
        return {
          method: 'POST',
          path: '/activities/act',
          body: { name: fresh('Act') },
          names: { slug: 'act' },
        };
      case 'activities.delete': {
        const slug = fresh('gone');
        ok(await server.api.post('/activities', admin, { name: slug, slug }), slug);
        return { method: 'DELETE', path: `/activities/${slug}`, names: { slug } };
      }
      case 'activities.restore': {
        const slug = fresh('back');
        const { uuid } = ok(
          await server.api.post('/activities', admin, { name: slug, slug }),
          slug,
        );
        ok(await server.api.del(`/activities/${slug}`, admin), `delete ${slug}`);
        return { method: 'POST', path: `/activities/${uuid}/restore`, body: {}, names: { uuid } };
      }
      case 'times.list.own':
        return { method: 'GET', path: '/times', listed: times.member };
      case 'times.list.others':
        return { method: 'GET', path: '/times', listed: times.member2 };
      case 'times.list.otherProject':
        return { method: 'GET', path: '/times', listed: times.qmember };
      case 'times.get.own':
      case 'times.get.others':
      case 'times.get.otherProject': {
        const uuid = timeOf(rule.id);
        return { method: 'GET', path: `/times/${uuid}`, names: { uuid } };
      }
      case 'times.history.own':
      case 'times.history.others':
      case 'times.history.otherProject': {
        const uuid = timeOf(rule.id);
        return { method: 'GET', path: `/times/${uuid}/history`, names: { uuid } };
      }
      case 'times.create.self':
      case 'times.create.other': {
        const user = rule.id.endsWith('self') ? caller : 'member2';
        const body = {
          duration: 60,
          user,
          project: 'p',
          activities: ['act'],
          date_worked: '2026-04-02',
        };
        return { method: 'POST', path: '/times', body, names: { slug: 'p' } };
      }
      case 'times.update.own':
      case 'times.update.others':
      case 'times.update.otherProject': {
        const uuid = timeOf(rule.id);
        return {
          method: 'POST',
          path: `/times/${uuid}`,
          body: { duration: 61 + seq++ },
          names: { uuid },
        };
      }
      case 'times.update.move': {
        const uuid = times.member;
        return { method: 'POST', path: `/times/${uuid}`, body: { project: 'q' }, names: { uuid } };
      }
      case 'times.update.user': {
        const uuid = await newTime('member', 'p');
        return {
          method: 'POST',
          path: `/times/${uuid}`,
          body: { user: 'member2' },
          names: { uuid },
        };
      }
      case 'times.delete.own':
      case 'times.delete.others':
      case 'times.delete.otherProject': {
        const owner = { own: 'member', others: 'member2', otherProject: 'qmember' }[
          rule.id.split('.')[2] as 'own'
        ];
        const uuid = await newTime(owner, owner === 'qmember' ? 'q' : 'p');
        return { method: 'DELETE', path: `/times/${uuid}`, names: { uuid } };
      }
      case 'timer.start':
        await server.api.del('/timer', tokens[caller as ActorName]);
        return {
          method: 'POST',
          path: '/timer',
          body: { project: 'p', activities: ['act'] },
          names: { slug: 'p' },
        };
      case 'timer.get.own':
        await runTimer(caller, 't');
        return { method: 'GET', path: '/timer' };
      case 'timer.stop.own':
        await runTimer(caller, 't');
        return { method: 'POST', path: '/timer/stop', body: { duration: 60 } };
      case 'timer.delete.own':
        await runTimer(caller, 't');
        return { method: 'DELETE', path: '/timer' };
      case 'timer.get.other':
      case 'timer.delete.other':
        await runTimer('member2', 'p');
        return {
          method: rule.id === 'timer.get.other' ? 'GET' : 'DELETE',
          path: '/timer',
          query: { user: 'member2' },
          names: { username: 'member2' },
        };
      case 'timer.stop.other':
        await runTimer('member2', 'p');
        return {
          method: 'POST',
          path: '/timer/stop?user=member2',
          body: { duration: 60 },
          names: { username: 'member2' },
        };
      case 'reports.own':
      case 'reports.others':
      case 'reports.otherProject':
        return {
          method: 'GET',
          path: '/reports',
          query: { start: '2026-04-01', end: '2026-04-02', group_by: 'user' },
          listed: { own: 'member', others: 'member2', otherProject: 'qmember' }[
            rule.id.split('.')[1] as 'own'
          ],
          keys: (body: { rows: { user: string }[] }) => body.rows.map((r) => r.user),
        };
      case 'weeks.submit.own': {
        const week = await weekOf(caller, 't', 'open');
        return { method: 'POST', path: `/weeks/${caller}/${week}/submit`, body: {} };
      }
      case 'weeks.submit.other': {
        const week = await weekOf('member2', 'p', 'open');
        return {
          method: 'POST',
          path: `/weeks/member2/${week}/submit`,
          body: {},
          names: { week },
        };
      }
      case 'approvals.list': {
        const week = await weekOf('member2', 'p', 'submit');
        const date = weekDates(week).first;
        return {
          method: 'GET',
          path: '/approvals',
          query: { start: date, end: date },
          listed: `member2/${week}/p`,
          keys: (body: { user: string; week: string; project: string[] }[]) =>
            body.map((p) => `${p.user}/${p.week}/${p.project[0]}`),
        };
      }
      case 'approvals.approve':
      case 'approvals.approve.otherProject':
      case 'approvals.approve.own':
      case 'approvals.reject':
      case 'approvals.reopen': {
        const [user, project] =
          rule.id === 'approvals.approve.own'
            ? [caller, 't']
            : rule.id === 'approvals.approve.otherProject'
              ? ['qmember', 'q']
              : ['member2', 'p'];
        const action = rule.id.split('.')[1] as string;
        const week = await weekOf(user, project, action === 'reopen' ? 'approve' : 'submit');
        return {
          method: 'POST',
          path: `/approvals/${user}/${week}/${project}/${action}`,
          body: action === 'reject' ? { comment: 'Please fix' } : {},
          names: { week },
        };
      }
      case 'approvals.history': {
        const week = await weekOf('member2', 'p', 'submit');
        return { method: 'GET', path: `/approvals/member2/${week}/p/history`, names: { week } };
      }
      case 'lock.get':
        return { method: 'GET', path: '/lock' };
      case 'keptRows.get.own':
        return { method: 'GET', path: `/weeks/${caller}/2026-W20/rows` };
      case 'keptRows.get.other':
        return { method: 'GET', path: '/weeks/member2/2026-W20/rows', names: { week: '2026-W20' } };
      case 'keptRows.put.own':
        return {
          method: 'PUT',
          path: `/weeks/${caller}/2026-W20/rows`,
          body: { rows: [{ project: 't', activities: ['act'] }] },
        };
      case 'keptRows.put.other':
        return {
          method: 'PUT',
          path: '/weeks/member2/2026-W20/rows',
          body: { rows: [{ project: 'p', activities: ['act'] }] },
          names: { week: '2026-W20' },
        };
      case 'lock.set':
        return { method: 'PUT', path: '/lock', body: { before: null } };
      case 'imports.own':
      case 'imports.others': {
        // A Harvest row of the caller's in T (every actor a member), or of member2's in P;
        // fresh notes, so that each is a new row. The report says whether it was imported.
        const [who, project] = rule.id === 'imports.own' ? [caller, 'T'] : ['member2', 'P'];
        return {
          method: 'POST',
          path: '/imports?format=harvest',
          file: `Date,Project,Task,Notes,Hours,First Name,Last Name\n2026-04-01,${project},Act,${fresh('n')},1,${who},\n`,
          listed: 'imported',
          keys: (body: { entries: { created: number } }) =>
            body.entries.created === 1 ? ['imported'] : [],
        };
      }
      case 'users.list':
        return { method: 'GET', path: '/users' };
      case 'users.get':
        return { method: 'GET', path: '/users/target' };
      case 'users.create':
        return { method: 'POST', path: '/users', body: { username: fresh('new') } };
      case 'users.update.self.profile':
        return { method: 'POST', path: `/users/${caller}`, body: { display_name: fresh('Me') } };
      case 'users.update.self.timezone':
        return {
          method: 'POST',
          path: `/users/${caller}`,
          body: { timezone: await otherZone(caller) },
        };
      case 'users.update.self.password':
        return {
          method: 'POST',
          path: `/users/${caller}`,
          body: { password: bcryptHash(fresh(`pw-${caller}`)) }, // a change each time
        };
      case 'users.update.self.flag':
        return {
          method: 'POST',
          path: `/users/${caller}`,
          body: { site_spectator: !(await currentFlag(caller, 'site_spectator')) },
        };
      case 'users.update.other.profile':
        return {
          method: 'POST',
          path: '/users/target',
          body: { display_name: fresh('T') },
          names: { username: 'target' },
        };
      case 'users.update.other.spectator':
        return {
          method: 'POST',
          path: '/users/target',
          body: { site_spectator: !(await currentFlag('target', 'site_spectator')) },
          names: { username: 'target' },
        };
      case 'users.update.other.password':
        return {
          method: 'POST',
          path: '/users/target',
          body: { password: bcryptHash(fresh('pw')) },
          names: { username: 'target' },
        };
      case 'users.update.other.timezone':
        return {
          method: 'POST',
          path: '/users/target',
          body: { timezone: await otherZone('target') },
          names: { username: 'target' },
        };
      case 'users.update.other.admin':
        // Granting and taking back alternately, so the value always changes.
        return {
          method: 'POST',
          path: '/users/target',
          body: { site_admin: !(await currentFlag('target', 'site_admin')) },
          names: { username: 'target' },
        };
      case 'users.delete': {
        const username = fresh('doomed');
        ok(await server.api.post('/users', admin, { username }), username);
        return { method: 'DELETE', path: `/users/${username}`, names: { username } };
      }
      case 'roles.list':
        return { method: 'GET', path: '/users/org-roles' };
      case 'roles.get':
        return { method: 'GET', path: '/users/org-roles/role' };
      case 'roles.create': {
        const slug = fresh('role');
        return { method: 'POST', path: '/users/org-roles', body: { name: slug, slug } };
      }
      case 'roles.update':
        return {
          method: 'POST',
          path: '/users/org-roles/role',
          body: { name: fresh('Role') },
          names: { slug: 'role' },
        };
      case 'roles.delete': {
        const slug = fresh('unheld');
        ok(await server.api.post('/users/org-roles', admin, { name: slug, slug }), slug);
        return { method: 'DELETE', path: `/users/org-roles/${slug}`, names: { slug } };
      }
      case 'tokens.list.own':
        return { method: 'GET', path: '/tokens' };
      case 'tokens.list.other':
        return {
          method: 'GET',
          path: '/tokens',
          query: { user: 'target' },
          names: { username: 'target' },
        };
      case 'tokens.create':
        return { method: 'POST', path: '/tokens', body: { name: fresh('t'), scope: 'read' } };
      case 'tokens.revoke.own':
      case 'tokens.revoke.other': {
        // The callers' own tokens are made with their login token; the other one is owner's.
        const owner = rule.id.endsWith('own') ? tokens[caller as ActorName] : ownerToken;
        const object = { name: fresh('t'), scope: 'read' };
        const made = ok(await server.api.post('/tokens', owner, object), 'token');
        return { method: 'DELETE', path: `/tokens/${made.id}`, names: { id: String(made.id) } };
      }
    }
    throw new Error(`no request for rule ${rule.id}`);
  }

  const timeOf = (id: string) =>
    times[
      ({ own: 'member', others: 'member2', otherProject: 'qmember' } as const)[
        id.split('.')[2] as 'own'
      ]
    ];

  async function currentFlag(username: string, flag: string): Promise<boolean> {
    return ok(await server.api.get(`/users/${username}`, admin), username)[flag];
  }

  /** A time zone other than the user's, so that each request changes it. */
  async function otherZone(username: string): Promise<string> {
    const { timezone } = ok(await server.api.get(`/users/${username}`, admin), username);
    return timezone === 'Europe/Berlin' ? 'America/Denver' : 'Europe/Berlin';
  }

  function send(req: Request, token: string | undefined): Promise<Reply> {
    if (req.file !== undefined) {
      return server.api.raw(`/v0${req.path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'text/csv',
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
        },
        body: req.file,
      });
    }
    if (req.method === 'GET') return server.api.get(req.path, token, req.query);
    if (req.method === 'DELETE') return server.api.del(req.path, token, req.query);
    if (req.method === 'PUT') {
      return server.api.raw(`/v0${req.path}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ...(token === undefined ? {} : { auth: { type: 'token', token } }),
          object: req.body,
        }),
      });
    }
    return server.api.post(req.path, token, req.body);
  }

  const fill = (action: string, names: Record<string, string>) =>
    action.replace(/\{(\w+)\}/g, (_, key: string) => names[key] ?? `{${key}}`);

  for (const rule of RULES) {
    it(`${rule.endpoint} — ${rule.target}`, async () => {
      for (const actor of ACTOR_NAMES) {
        const req = await requestFor(rule, actor);
        const res = await send(req, tokens[actor]);
        const where = `${actor}: ${req.method} ${req.path} → ${res.status} ${res.text.slice(0, 200)}`;
        const allowed = rule.allowed.includes(actor);
        if (req.listed) {
          assert.equal(res.status, 200, where);
          const keys = req.keys
            ? req.keys(res.body)
            : (res.body as { uuid: string }[]).map((t) => t.uuid);
          assert.equal(keys.includes(req.listed), allowed, where);
        } else if (allowed) {
          assert.equal(res.status, 200, where);
        } else {
          const action = fill(refusalOf(rule, actor) as string, { actor, ...req.names });
          assert.deepEqual(res.body, authorizationBody(actor, action), where);
        }
      }
      for (const [caller, { text }] of Object.entries(UNAUTHENTICATED)) {
        const req = await requestFor(rule, 'member');
        const res = await send(req, tokens[caller as UnauthenticatedName]);
        assert.deepEqual(
          res.body,
          authenticationBody(text),
          `${caller}: ${req.method} ${req.path}`,
        );
      }
    });
  }

  // Personal API tokens (issue 33): each rule once more for an actor it allows, with a
  // personal token of each scope. A write token does what the owner's login token does,
  // but for the rule's personalRefusal; a read token reads alike and is refused every
  // other request, whatever route it is.
  const personal = {} as Record<ActorName, { read: string; write: string }>;
  const personalToken = async (actor: ActorName) => {
    if (!personal[actor]) {
      const make = async (scope: string) =>
        ok(
          await server.api.post('/tokens', tokens[actor], { name: `matrix-${scope}`, scope }),
          `${scope} token of ${actor}`,
        ).token as string;
      personal[actor] = { read: await make('read'), write: await make('write') };
    }
    return personal[actor];
  };
  for (const rule of RULES) {
    const actor = rule.allowed[0];
    if (!actor) continue; // no one does it: refused alike with any token
    it(`personal tokens: ${rule.endpoint} — ${rule.target}`, async () => {
      const pat = await personalToken(actor);
      for (const scope of ['write', 'read'] as const) {
        const req = await requestFor(rule, actor);
        const res = await send(req, pat[scope]);
        const where: string = `${scope} token of ${actor}: ${req.method} ${req.path} → ${res.status} ${res.text.slice(0, 200)}`;
        const path = `/v0${req.path.split('?')[0]}`;
        const refusal =
          scope === 'read' && req.method !== 'GET'
            ? `${req.method} ${path} with a read-only token`
            : rule.personalRefusal;
        if (refusal) {
          const action = fill(refusal, { actor, ...req.names });
          assert.deepEqual(res.body, authorizationBody(actor, action), where);
        } else {
          assert.equal(res.status, 200, where);
          if (req.listed) {
            const keys = req.keys
              ? req.keys(res.body)
              : (res.body as { uuid: string }[]).map((t) => t.uuid);
            assert.ok(keys.includes(req.listed), where);
          }
        }
      }
    });
  }

  it('runs every write route of the router with a personal token', async () => {
    const { createRouter } = await import('../../../src/routes');
    const writes = createRouter(server.running.app)
      .list()
      .filter((r) => r.method !== 'GET' && r.pattern.startsWith('/v0/'))
      .filter((r) => !NO_RULE_ENDPOINTS.includes(r.pattern))
      .map((r) => `${r.method} ${r.pattern}`);
    const run = new Set(RULES.filter((r) => r.allowed.length > 0).map((r) => r.endpoint));
    assert.deepEqual(
      writes.filter((e) => !run.has(e)),
      [],
    );
  });

  it('covers every endpoint of the router', async () => {
    const { createRouter } = await import('../../../src/routes');
    const endpoints = createRouter(server.running.app)
      .list()
      // Login, info, the OpenAPI document and the single sign-on's redirects take no
      // token: no permission rule applies;
      // nor to the logout, which ends the caller's own token (test/api/auth/logout.test.ts).
      .filter((r) => r.pattern.startsWith('/v0/') && !NO_RULE_ENDPOINTS.includes(r.pattern))
      .map((r) => `${r.method} ${r.pattern}`);
    const covered = new Set(RULES.map((r) => r.endpoint));
    assert.deepEqual(
      endpoints.filter((e) => !covered.has(e)),
      [],
    );
  });
});

// The renewal, like the logout, only exchanges the caller's own token (test/api/auth/renew.test.ts).
const NO_RULE_ENDPOINTS = [
  '/v0/login',
  '/v0/info',
  '/v0/openapi.json',
  '/v0/logout',
  '/v0/oidc/start',
  '/v0/oidc/callback',
  '/v0/login/renew',
];

describe('docs/permissions.md', () => {
  it('is the text generated from the permissions table', () => {
    const file = readFileSync(join(__dirname, '../../..', 'docs', 'permissions.md'), 'utf8');
    assert.equal(
      file,
      permissionsMarkdown(),
      'regenerate: npx tsx test/helpers/permissions-table.ts > docs/permissions.md',
    );
  });
});
