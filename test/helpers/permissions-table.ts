// Who may do what (SPEC §3), as one table: every endpoint × target × actor. The
// authorization-matrix test runs it against a real server, and docs/permissions.md is
// generated from it (`npx tsx test/helpers/permissions-table.ts > docs/permissions.md`),
// so the document cannot drift from what the server does.

/** Actors that hold a valid token, and what makes each one what it is. */
export const ACTORS = {
  admin: 'site admin',
  sitemgr: 'site manager',
  sitespec: 'site spectator',
  projmgr: 'manager of project P',
  othermgr: 'manager of project R (not P)',
  member: 'member of project P',
  spectator: 'spectator of project P',
  plain: 'user without flags or project roles',
} as const;
export type ActorName = keyof typeof ACTORS;
export const ACTOR_NAMES = Object.keys(ACTORS) as ActorName[];

/** Callers without a valid token: refused before anything else (kind 7), with this text. */
export const UNAUTHENTICATED = {
  inactive: { who: 'user set inactive after logging in', text: 'Invalid token' },
  deleted: { who: 'user deleted after logging in', text: 'Invalid token' },
  none: { who: 'no token', text: 'Missing credentials' },
  expired: { who: 'token past its exp', text: 'Token has expired' },
} as const;
export type UnauthenticatedName = keyof typeof UNAUTHENTICATED;

const ALL = ACTOR_NAMES;
const SITE_MANAGERS: ActorName[] = ['admin', 'sitemgr'];

export interface Rule {
  /** Key of the request the test sends for this row. */
  id: string;
  endpoint: string;
  target: string;
  /** Actors who succeed (200, or: the time is in their list). */
  allowed: readonly ActorName[];
  /**
   * The action of the kind 9 text `<caller> is not authorized to <action>` for everyone
   * else; {actor}, {slug}, {uuid} and {username} stand for the caller and the target.
   */
  refusal?: string;
  /** A different action text for some actors (the first rule that fails wins). */
  refusalFor?: Partial<Record<ActorName, string>>;
  /**
   * List and report rows: refused actors get 200 without the object (a report does not
   * count it) rather than kind 9.
   */
  listed?: true;
  /**
   * The kind 9 action a personal API token with write scope gets even where its owner is
   * allowed (issue 33: what a leaked script token may never do); {actor} etc. as above.
   */
  personalRefusal?: string;
}

/**
 * Fixtures the rows refer to: project P (manager projmgr; members member and member2;
 * spectator spectator), project Q (member qmember), one time of each of member, member2
 * and qmember, activity `act`, org role `role`, user `target`; for the timer rows
 * project T, where every actor is a member, and a timer of member2's in P.
 */
export const RULES: readonly Rule[] = [
  { id: 'projects.list', endpoint: 'GET /v0/projects', target: 'all projects', allowed: ALL },
  { id: 'projects.get', endpoint: 'GET /v0/projects/:slug', target: 'project P', allowed: ALL },
  {
    id: 'projects.history',
    endpoint: 'GET /v0/projects/:uuid/history',
    target: 'project P',
    allowed: ALL,
  },
  {
    id: 'projects.create',
    endpoint: 'POST /v0/projects',
    target: 'a new project',
    allowed: SITE_MANAGERS,
    refusal: 'create projects',
  },
  {
    id: 'projects.update.own',
    endpoint: 'POST /v0/projects/:slug',
    target: 'project P (users map included)',
    allowed: ['admin', 'sitemgr', 'projmgr'],
    refusal: 'update project {slug}',
  },
  {
    id: 'projects.update.other',
    endpoint: 'POST /v0/projects/:slug',
    target: 'project Q',
    allowed: SITE_MANAGERS,
    refusal: 'update project {slug}',
  },
  {
    id: 'projects.delete.own',
    endpoint: 'DELETE /v0/projects/:slug',
    target: 'a project with the roles of P',
    allowed: ['admin', 'sitemgr', 'projmgr'],
    refusal: 'delete project {slug}',
  },
  {
    id: 'projects.delete.other',
    endpoint: 'DELETE /v0/projects/:slug',
    target: 'a project with the roles of Q',
    allowed: SITE_MANAGERS,
    refusal: 'delete project {slug}',
  },
  {
    id: 'projects.restore.own',
    endpoint: 'POST /v0/projects/:uuid/restore',
    target: 'a deleted project with the roles of P',
    allowed: ['admin', 'sitemgr', 'projmgr'],
    refusal: 'restore project {uuid}',
  },
  {
    id: 'projects.restore.other',
    endpoint: 'POST /v0/projects/:uuid/restore',
    target: 'a deleted project with the roles of Q',
    allowed: SITE_MANAGERS,
    refusal: 'restore project {uuid}',
  },

  { id: 'activities.list', endpoint: 'GET /v0/activities', target: 'all', allowed: ALL },
  {
    id: 'activities.get',
    endpoint: 'GET /v0/activities/:slug',
    target: 'an activity',
    allowed: ALL,
  },
  {
    id: 'activities.history',
    endpoint: 'GET /v0/activities/:uuid/history',
    target: 'an activity',
    allowed: ALL,
  },
  {
    id: 'activities.create',
    endpoint: 'POST /v0/activities',
    target: 'a new activity',
    allowed: SITE_MANAGERS,
    refusal: 'create activities',
  },
  {
    id: 'activities.update',
    endpoint: 'POST /v0/activities/:slug',
    target: 'an activity',
    allowed: SITE_MANAGERS,
    refusal: 'update activity {slug}',
  },
  {
    id: 'activities.delete',
    endpoint: 'DELETE /v0/activities/:slug',
    target: 'an unused activity',
    allowed: SITE_MANAGERS,
    refusal: 'delete activity {slug}',
  },
  {
    id: 'activities.restore',
    endpoint: 'POST /v0/activities/:uuid/restore',
    target: 'a deleted activity',
    allowed: SITE_MANAGERS,
    refusal: 'restore activity {uuid}',
  },

  {
    id: 'times.list.own',
    endpoint: 'GET /v0/times',
    target: "lists member's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'member', 'spectator'],
    listed: true,
  },
  {
    id: 'times.list.others',
    endpoint: 'GET /v0/times',
    target: "lists member2's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'spectator'],
    listed: true,
  },
  {
    id: 'times.list.otherProject',
    endpoint: 'GET /v0/times',
    target: "lists qmember's time in Q",
    allowed: ['admin', 'sitemgr', 'sitespec'],
    listed: true,
  },
  {
    id: 'times.get.own',
    endpoint: 'GET /v0/times/:uuid',
    target: "member's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'member', 'spectator'],
    refusal: 'view time {uuid}',
  },
  {
    id: 'times.get.others',
    endpoint: 'GET /v0/times/:uuid',
    target: "member2's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'spectator'],
    refusal: 'view time {uuid}',
  },
  {
    id: 'times.get.otherProject',
    endpoint: 'GET /v0/times/:uuid',
    target: "qmember's time in Q",
    allowed: ['admin', 'sitemgr', 'sitespec'],
    refusal: 'view time {uuid}',
  },
  {
    id: 'times.history.own',
    endpoint: 'GET /v0/times/:uuid/history',
    target: "member's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'member', 'spectator'],
    refusal: 'view time {uuid}',
  },
  {
    id: 'times.history.others',
    endpoint: 'GET /v0/times/:uuid/history',
    target: "member2's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'spectator'],
    refusal: 'view time {uuid}',
  },
  {
    id: 'times.history.otherProject',
    endpoint: 'GET /v0/times/:uuid/history',
    target: "qmember's time in Q",
    allowed: ['admin', 'sitemgr', 'sitespec'],
    refusal: 'view time {uuid}',
  },
  {
    id: 'times.create.self',
    endpoint: 'POST /v0/times',
    target: 'for oneself in P',
    allowed: ['member'],
    refusal: 'create time entries for {actor} in project {slug}',
  },
  {
    id: 'times.create.other',
    endpoint: 'POST /v0/times',
    target: 'for member2 in P',
    allowed: ['admin'],
    refusal: 'create time entries for member2',
  },
  {
    id: 'times.update.own',
    endpoint: 'POST /v0/times/:uuid',
    target: "member's time in P",
    allowed: ['admin', 'member'],
    refusal: 'update time {uuid}',
  },
  {
    id: 'times.update.others',
    endpoint: 'POST /v0/times/:uuid',
    target: "member2's time in P",
    allowed: ['admin'],
    refusal: 'update time {uuid}',
  },
  {
    id: 'times.update.otherProject',
    endpoint: 'POST /v0/times/:uuid',
    target: "qmember's time in Q",
    allowed: ['admin'],
    refusal: 'update time {uuid}',
  },
  {
    id: 'times.update.move',
    endpoint: 'POST /v0/times/:uuid',
    target: "member's time, moved to Q (member is no member of Q)",
    allowed: [],
    refusal: 'update time {uuid}',
    refusalFor: {
      admin: 'move time {uuid} to member in project q',
      member: 'move time {uuid} to member in project q',
    },
  },
  {
    id: 'times.update.user',
    endpoint: 'POST /v0/times/:uuid',
    target: "a time of member's, given to member2",
    allowed: ['admin'],
    refusal: 'update time {uuid}',
  },
  {
    id: 'times.delete.own',
    endpoint: 'DELETE /v0/times/:uuid',
    target: "a time of member's in P",
    allowed: ['admin', 'sitemgr', 'member'],
    refusal: 'delete time {uuid}',
  },
  {
    id: 'times.delete.others',
    endpoint: 'DELETE /v0/times/:uuid',
    target: "a time of member2's in P",
    allowed: SITE_MANAGERS,
    refusal: 'delete time {uuid}',
  },
  {
    id: 'times.delete.otherProject',
    endpoint: 'DELETE /v0/times/:uuid',
    target: "a time of qmember's in Q",
    allowed: SITE_MANAGERS,
    refusal: 'delete time {uuid}',
  },

  {
    id: 'timer.start',
    endpoint: 'POST /v0/timer',
    target: 'for oneself in P',
    allowed: ['member'],
    refusal: 'create time entries for {actor} in project {slug}',
  },
  { id: 'timer.get.own', endpoint: 'GET /v0/timer', target: 'one’s own, in T', allowed: ALL },
  {
    id: 'timer.get.other',
    endpoint: 'GET /v0/timer',
    target: "?user=member2: member2's",
    allowed: ['admin'],
    refusal: 'read the timer of {username}',
  },
  {
    id: 'timer.stop.own',
    endpoint: 'POST /v0/timer/stop',
    target: 'one’s own, in T',
    allowed: ALL,
  },
  {
    id: 'imports.own',
    endpoint: 'POST /v0/imports',
    target: 'imports a row of one’s own, in T',
    allowed: ALL,
    listed: true,
  },
  {
    id: 'imports.others',
    endpoint: 'POST /v0/imports',
    target: "imports a row of member2's, in P (others: skipped and counted)",
    allowed: SITE_MANAGERS,
    listed: true,
  },
  {
    id: 'timer.stop.other',
    endpoint: 'POST /v0/timer/stop',
    target: "?user=member2: member2's, in P",
    allowed: ['admin'],
    refusal: 'stop the timer of {username}',
  },
  { id: 'timer.delete.own', endpoint: 'DELETE /v0/timer', target: 'one’s own, in T', allowed: ALL },
  {
    id: 'timer.delete.other',
    endpoint: 'DELETE /v0/timer',
    target: "?user=member2: member2's",
    allowed: ['admin'],
    refusal: 'discard the timer of {username}',
  },
  {
    id: 'reports.own',
    endpoint: 'GET /v0/reports',
    target: "counts member's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'member', 'spectator'],
    listed: true,
  },
  {
    id: 'reports.others',
    endpoint: 'GET /v0/reports',
    target: "counts member2's time in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'spectator'],
    listed: true,
  },
  {
    id: 'reports.otherProject',
    endpoint: 'GET /v0/reports',
    target: "counts qmember's time in Q",
    allowed: ['admin', 'sitemgr', 'sitespec'],
    listed: true,
  },

  { id: 'users.list', endpoint: 'GET /v0/users', target: 'all users', allowed: ALL },
  { id: 'users.get', endpoint: 'GET /v0/users/:username', target: 'another user', allowed: ALL },
  {
    id: 'users.create',
    endpoint: 'POST /v0/users',
    target: 'a new user',
    allowed: SITE_MANAGERS,
    refusal: 'create users',
  },
  {
    id: 'users.update.self.profile',
    endpoint: 'POST /v0/users/:username',
    target: 'oneself: display_name',
    allowed: ALL,
  },
  {
    id: 'users.update.self.timezone',
    endpoint: 'POST /v0/users/:username',
    target: 'oneself: timezone',
    allowed: ALL,
  },
  {
    id: 'users.update.self.password',
    endpoint: 'POST /v0/users/:username',
    target: 'oneself: password',
    allowed: ALL,
    personalRefusal: 'set password of user {actor} with a personal token',
  },
  {
    id: 'users.update.self.flag',
    endpoint: 'POST /v0/users/:username',
    target: 'oneself: site_spectator',
    allowed: ['admin'],
    refusal: 'set site_spectator of user {actor}',
    personalRefusal: 'set site_spectator of user {actor} with a personal token',
  },
  {
    id: 'users.update.other.profile',
    endpoint: 'POST /v0/users/:username',
    target: 'another user: display_name',
    allowed: SITE_MANAGERS,
    refusal: 'update user {username}',
  },
  {
    id: 'users.update.other.spectator',
    endpoint: 'POST /v0/users/:username',
    target: 'another user: site_spectator',
    allowed: SITE_MANAGERS,
    refusal: 'update user {username}',
    personalRefusal: 'set site_spectator of user {username} with a personal token',
  },
  {
    id: 'users.update.other.password',
    endpoint: 'POST /v0/users/:username',
    target: 'another user: password',
    allowed: ['admin'],
    refusal: 'update user {username}',
    refusalFor: { sitemgr: 'set password of user {username}' },
    personalRefusal: 'set password of user {username} with a personal token',
  },
  {
    id: 'users.update.other.timezone',
    endpoint: 'POST /v0/users/:username',
    target: 'another user: timezone',
    allowed: ['admin'],
    refusal: 'update user {username}',
    refusalFor: { sitemgr: 'set timezone of user {username}' },
  },
  {
    id: 'users.update.other.admin',
    endpoint: 'POST /v0/users/:username',
    target: 'another user: site_admin',
    allowed: ['admin'],
    refusal: 'update user {username}',
    refusalFor: { sitemgr: 'set site_admin of user {username}' },
    personalRefusal: 'set site_admin of user {username} with a personal token',
  },
  {
    id: 'users.delete',
    endpoint: 'DELETE /v0/users/:username',
    target: 'another user',
    allowed: ['admin'],
    refusal: 'delete user {username}',
  },

  { id: 'roles.list', endpoint: 'GET /v0/users/org-roles', target: 'all', allowed: ALL },
  { id: 'roles.get', endpoint: 'GET /v0/users/org-roles/:slug', target: 'a role', allowed: ALL },
  {
    id: 'roles.create',
    endpoint: 'POST /v0/users/org-roles',
    target: 'a new role',
    allowed: SITE_MANAGERS,
    refusal: 'create org-roles',
  },
  {
    id: 'roles.update',
    endpoint: 'POST /v0/users/org-roles/:slug',
    target: 'a role',
    allowed: SITE_MANAGERS,
    refusal: 'update org-role {slug}',
  },
  {
    id: 'roles.delete',
    endpoint: 'DELETE /v0/users/org-roles/:slug',
    target: 'a role nobody holds',
    allowed: SITE_MANAGERS,
    refusal: 'delete org-role {slug}',
  },

  { id: 'tokens.list.own', endpoint: 'GET /v0/tokens', target: 'one’s own', allowed: ALL },
  {
    id: 'tokens.list.other',
    endpoint: 'GET /v0/tokens',
    target: "?user=target: target's",
    allowed: ['admin'],
    refusal: 'list the tokens of {username}',
  },
  {
    id: 'tokens.create',
    endpoint: 'POST /v0/tokens',
    target: 'one’s own',
    allowed: ALL,
    personalRefusal: 'create tokens with a personal token',
  },
  {
    id: 'tokens.revoke.own',
    endpoint: 'DELETE /v0/tokens/:id',
    target: 'one’s own',
    allowed: ALL,
    personalRefusal: 'revoke tokens with a personal token',
  },
  {
    id: 'tokens.revoke.other',
    endpoint: 'DELETE /v0/tokens/:id',
    target: "another user's",
    allowed: ['admin'],
    refusal: 'revoke token {id}',
    personalRefusal: 'revoke tokens with a personal token',
  },
  // Weekly submission and approval, the lock date (issue 32).
  {
    id: 'weeks.submit.own',
    endpoint: 'POST /v0/weeks/:username/:week/submit',
    target: 'one’s own week, entries in T',
    allowed: ALL,
  },
  {
    id: 'weeks.submit.other',
    endpoint: 'POST /v0/weeks/:username/:week/submit',
    target: "member2's week, entries in P",
    allowed: ['admin'],
    refusal: 'submit week {week} of member2',
  },
  {
    id: 'approvals.list',
    endpoint: 'GET /v0/approvals',
    target: "lists member2's week part in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'spectator'],
    listed: true,
  },
  {
    id: 'approvals.approve',
    endpoint: 'POST /v0/approvals/:username/:week/:slug/approve',
    target: "member2's submitted week part in P",
    allowed: ['admin', 'sitemgr', 'projmgr'],
    refusal: 'approve week {week} of member2 in project p',
  },
  {
    id: 'approvals.approve.otherProject',
    endpoint: 'POST /v0/approvals/:username/:week/:slug/approve',
    target: "qmember's submitted week part in Q",
    allowed: SITE_MANAGERS,
    refusal: 'approve week {week} of qmember in project q',
  },
  {
    id: 'approvals.approve.own',
    endpoint: 'POST /v0/approvals/:username/:week/:slug/approve',
    target: 'one’s own submitted week part in T (everyone a member)',
    allowed: [],
    refusal: 'approve week {week} of {actor} in project t',
  },
  {
    id: 'approvals.reject',
    endpoint: 'POST /v0/approvals/:username/:week/:slug/reject',
    target: "member2's submitted week part in P, with a comment",
    allowed: ['admin', 'sitemgr', 'projmgr'],
    refusal: 'reject week {week} of member2 in project p',
  },
  {
    id: 'approvals.reopen',
    endpoint: 'POST /v0/approvals/:username/:week/:slug/reopen',
    target: "member2's approved week part in P",
    allowed: ['admin', 'sitemgr', 'projmgr'],
    refusal: 'reopen week {week} of member2 in project p',
  },
  {
    id: 'approvals.history',
    endpoint: 'GET /v0/approvals/:username/:week/:slug/history',
    target: "member2's week part in P",
    allowed: ['admin', 'sitemgr', 'sitespec', 'projmgr', 'spectator'],
    refusal: 'view week {week} of member2 in project p',
  },
  { id: 'lock.get', endpoint: 'GET /v0/lock', target: 'the lock date', allowed: ALL },
  {
    id: 'lock.set',
    endpoint: 'PUT /v0/lock',
    target: 'the lock date',
    allowed: ['admin'],
    refusal: 'set the lock date',
  },
  // Kept timesheet rows (issue 34).
  {
    id: 'keptRows.get.own',
    endpoint: 'GET /v0/weeks/:username/:week/rows',
    target: 'one’s own week',
    allowed: ALL,
  },
  {
    id: 'keptRows.get.other',
    endpoint: 'GET /v0/weeks/:username/:week/rows',
    target: "member2's week",
    allowed: ['admin'],
    refusal: 'read the kept rows of week {week} of member2',
  },
  {
    id: 'keptRows.put.own',
    endpoint: 'PUT /v0/weeks/:username/:week/rows',
    target: 'one’s own week, a row in T',
    allowed: ALL,
  },
  {
    id: 'keptRows.put.other',
    endpoint: 'PUT /v0/weeks/:username/:week/rows',
    target: "member2's week, a row in P",
    allowed: ['admin'],
    refusal: 'keep rows in week {week} of member2',
  },
];

/** The kind 9 action an actor gets for a rule (undefined when allowed). */
export function refusalOf(rule: Rule, actor: ActorName): string | undefined {
  if (rule.allowed.includes(actor)) return undefined;
  return rule.refusalFor?.[actor] ?? rule.refusal;
}

const HEADER = `# Permissions

Who may do what, endpoint by endpoint (SPEC §3). ✓ = allowed; ✗ = refused with kind 9
(401, \`Authorization failure\`, text \`<caller> is not authorized to <action>\`, the
action shown in the last column); for list rows ✗ means the time is simply not in the
list (GET /times never errors for visibility), and for report rows that the report does
not count it (GET /reports counts exactly what GET /times lists). Generated from
\`test/helpers/permissions-table.ts\`, the same table \`test/api/permissions/authz-matrix.test.ts\` runs
against a real server — regenerate with
\`npx tsx test/helpers/permissions-table.ts > docs/permissions.md\`.

The fixtures: project **P** (manager \`projmgr\`; members \`member\` and \`member2\`;
spectator \`spectator\`), project **Q** (member \`qmember\`), project **R** (manager
\`othermgr\`, nothing else), one time entry of each of
\`member\`, \`member2\` and \`qmember\`. The site admin is no member of P or Q: a
time entry's user must be a member of its project, whoever creates it. For the running
timer (\`/v0/timer\`): project **T**, where every actor is a member, and a timer of
\`member2\`'s in P; \`?user=\` names another user's timer. Week parts (issue 32): each
row makes a fresh week with an entry and submits (and approves) it as needed; nobody
decides on their own entries, admins included.
`;

/** docs/permissions.md, generated. */
export function permissionsMarkdown(): string {
  const head = `| endpoint | target | ${ACTOR_NAMES.map((a) => ACTORS[a]).join(' | ')} | refused with |`;
  const rule = `|${' --- |'.repeat(ACTOR_NAMES.length + 3)}`;
  const rows = RULES.map((r) => {
    const cells = ACTOR_NAMES.map((a) => (r.allowed.includes(a) ? '✓' : '✗'));
    const code = (t: string) => `\`${t.replace(/\{(\w+)\}/g, '<$1>')}\``;
    const refusals = [
      ...(r.refusal ? [code(r.refusal)] : []),
      ...Object.entries(r.refusalFor ?? {}).map(
        ([a, t]) => `${code(t)} for ${ACTORS[a as ActorName]}`,
      ),
    ].join('; ');
    const unlisted = r.endpoint === 'GET /v0/reports' ? 'not counted' : 'not listed';
    const refused = r.listed ? unlisted : refusals || '—';
    return `| ${r.endpoint} | ${r.target} | ${cells.join(' | ')} | ${refused} |`;
  });
  const personal = RULES.filter((r) => r.personalRefusal)
    .map(
      (r) =>
        `| ${r.endpoint} | ${r.target} | \`${r.personalRefusal?.replace(/\{(\w+)\}/g, '<$1>')}\` |`,
    )
    .join('\n');
  const unauthenticated = Object.values(UNAUTHENTICATED)
    .map((u) => `| ${u.who} | \`${u.text}\` |`)
    .join('\n');
  return `${HEADER}
${head}
${rule}
${rows.join('\n')}

Callers without a valid token get kind 7 (401, \`Authentication failure\`) on every
endpoint above, before any other check:

| caller | text |
| --- | --- |
${unauthenticated}

## Personal API tokens

A personal API token (\`POST /v0/tokens\`, [api-tokens.md](api-tokens.md)) acts as its owner: every
row above holds for it as for the owner's login token, with two limits. A token of scope
\`read\` is refused every request but GET and HEAD (kind 9,
\`<caller> is not authorized to <METHOD> <path> with a read-only token\`). A token of
either scope is refused what a leaked script token must never do, even where its owner
is allowed:

| endpoint | target | refused with |
| --- | --- | --- |
${personal}
| POST /v0/logout | the token it comes with | \`sign out with a personal token\` (revoke it instead) |
`;
}

if (require.main === module) process.stdout.write(permissionsMarkdown());
