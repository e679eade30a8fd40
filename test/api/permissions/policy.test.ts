// The permission rules of SPEC §3, one table per policy function: who (actor kind) ×
// what (facts about the target) → allowed. Read a table as a row of SPEC §3.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Actor,
  canCreateProject,
  canCreateTime,
  canCreateUsers,
  canDecideWeekOf,
  canDeleteTime,
  canDeleteUsers,
  canHandleTimerOf,
  canImportRowsOf,
  canListTokensOf,
  canManageProject,
  canRevokeToken,
  canSetLockDate,
  canSetUserField,
  canSubmitWeekOf,
  canUpdateTime,
  canViewTime,
  canWriteActivities,
  canWriteOrgRoles,
  mayOwnTimeIn,
  mayWrite,
  NO_ROLE,
  type ProjectRole,
  seesAllTimes,
  type UserField,
} from '../../../src/policy';

type Kind = 'admin' | 'manager' | 'spectator' | 'plain';
const KINDS: readonly Kind[] = ['admin', 'manager', 'spectator', 'plain'];

/** The actor is always user 1; "other" users are user 2. */
const SELF = 1;
const OTHER = 2;
const actor = (kind: Kind): Actor => ({
  id: SELF,
  username: kind,
  siteAdmin: kind === 'admin',
  siteManager: kind === 'manager',
  siteSpectator: kind === 'spectator',
});

const MEMBER: ProjectRole = { member: true, spectator: false, manager: false };
const SPECTATOR: ProjectRole = { member: false, spectator: true, manager: false };
const MANAGER: ProjectRole = { member: false, spectator: false, manager: true };
const ROLES = { none: NO_ROLE, member: MEMBER, spectator: SPECTATOR, manager: MANAGER };
type RoleName = keyof typeof ROLES;

/** Checks every row of a table: [actor kind, ...facts, expected]. */
function table<Row extends readonly unknown[]>(
  rows: readonly Row[],
  decide: (row: Row) => boolean,
  expected: (row: Row) => boolean,
) {
  for (const row of rows) assert.equal(decide(row), expected(row), JSON.stringify(row));
}

describe('site-wide actions (no target facts)', () => {
  //  function            admin  manager spectator plain
  const rows: [string, (a: Actor) => boolean, boolean[]][] = [
    ['canCreateProject', canCreateProject, [true, true, false, false]],
    ['canWriteActivities', canWriteActivities, [true, true, false, false]],
    ['canCreateUsers', canCreateUsers, [true, true, false, false]],
    ['canDeleteUsers', canDeleteUsers, [true, false, false, false]],
    ['canWriteOrgRoles', canWriteOrgRoles, [true, true, false, false]],
    ['seesAllTimes', seesAllTimes, [true, true, true, false]],
  ];
  for (const [name, fn, expected] of rows) {
    it(name, () => {
      assert.deepEqual(
        KINDS.map((k) => fn(actor(k))),
        expected,
      );
    });
  }
});

describe('canManageProject (update a project and its users map, delete it)', () => {
  it('site managers and admins always; others only as the project manager', () => {
    //   actor        role in project  allowed
    const rows: [Kind, RoleName, boolean][] = [
      ['admin', 'none', true],
      ['manager', 'none', true],
      ['spectator', 'none', false],
      ['spectator', 'manager', true],
      ['plain', 'none', false],
      ['plain', 'member', false],
      ['plain', 'spectator', false],
      ['plain', 'manager', true],
    ];
    table(
      rows,
      ([k, r]) => canManageProject(actor(k), ROLES[r]),
      ([, , ok]) => ok,
    );
  });
});

describe('canViewTime (GET /times/:uuid)', () => {
  it('owner, project managers and spectators, site spectators, managers, admins', () => {
    //   actor        owner    actor's role  allowed
    const rows: [Kind, 'self' | 'other', RoleName, boolean][] = [
      ['plain', 'self', 'none', true],
      ['plain', 'other', 'none', false],
      ['plain', 'other', 'member', false],
      ['plain', 'other', 'spectator', true],
      ['plain', 'other', 'manager', true],
      ['spectator', 'other', 'none', true],
      ['manager', 'other', 'none', true],
      ['admin', 'other', 'none', true],
    ];
    table(
      rows,
      ([k, owner, r]) =>
        canViewTime(actor(k), { ownerId: owner === 'self' ? SELF : OTHER, role: ROLES[r] }),
      ([, , , ok]) => ok,
    );
  });
});

describe('mayOwnTimeIn (a time entry user must be a project member)', () => {
  it('only members, whatever else they are', () => {
    const rows: [RoleName, boolean][] = [
      ['member', true],
      ['none', false],
      ['spectator', false],
      ['manager', false],
    ];
    table(
      rows,
      ([r]) => mayOwnTimeIn(ROLES[r]),
      ([, ok]) => ok,
    );
    assert.equal(mayOwnTimeIn({ member: true, spectator: true, manager: true }), true);
  });
});

describe('canCreateTime (POST /times)', () => {
  it('for oneself as a member; admins for any member; nobody for a non-member', () => {
    //   actor       for user  that user's role  allowed
    const rows: [Kind, 'self' | 'other', RoleName, boolean][] = [
      ['plain', 'self', 'member', true],
      ['plain', 'self', 'none', false],
      ['plain', 'self', 'manager', false],
      ['plain', 'other', 'member', false],
      ['spectator', 'other', 'member', false],
      ['manager', 'self', 'member', true],
      ['manager', 'other', 'member', false],
      ['admin', 'other', 'member', true],
      ['admin', 'other', 'none', false],
      ['admin', 'self', 'none', false],
    ];
    table(
      rows,
      ([k, who, r]) => canCreateTime(actor(k), who === 'self' ? SELF : OTHER, ROLES[r]),
      ([, , , ok]) => ok,
    );
  });
});

describe('canUpdateTime (POST /times/:uuid)', () => {
  it('the owner (not moving it to another user) and admins', () => {
    //   actor        owner    changes user  allowed
    const rows: [Kind, 'self' | 'other', boolean, boolean][] = [
      ['plain', 'self', false, true],
      ['plain', 'self', true, false],
      ['plain', 'other', false, false],
      ['spectator', 'other', false, false],
      ['manager', 'other', false, false],
      ['manager', 'self', true, false],
      ['admin', 'other', false, true],
      ['admin', 'other', true, true],
    ];
    table(
      rows,
      ([k, owner, changes]) => canUpdateTime(actor(k), owner === 'self' ? SELF : OTHER, changes),
      ([, , , ok]) => ok,
    );
  });
});

describe('canDeleteTime (DELETE /times/:uuid)', () => {
  it('the owner, site managers, admins', () => {
    const rows: [Kind, 'self' | 'other', boolean][] = [
      ['plain', 'self', true],
      ['plain', 'other', false],
      ['spectator', 'other', false],
      ['manager', 'other', true],
      ['admin', 'other', true],
    ];
    table(
      rows,
      ([k, owner]) => canDeleteTime(actor(k), owner === 'self' ? SELF : OTHER),
      ([, , ok]) => ok,
    );
  });
});

describe('canImportRowsOf (POST /v0/imports: whose rows are imported)', () => {
  it('one’s own rows; anyone’s for site managers and admins', () => {
    const rows: [Kind, 'self' | 'other', boolean][] = [
      ['plain', 'self', true],
      ['plain', 'other', false],
      ['spectator', 'other', false],
      ['manager', 'other', true],
      ['admin', 'other', true],
    ];
    table(
      rows,
      ([k, owner]) => canImportRowsOf(actor(k), owner === 'self' ? SELF : OTHER),
      ([, , ok]) => ok,
    );
  });
});

describe('canHandleTimerOf (GET, POST /stop, DELETE /v0/timer with ?user=)', () => {
  it('one’s own timer; anyone’s for admins only (support)', () => {
    const rows: [Kind, 'self' | 'other', boolean][] = [
      ['plain', 'self', true],
      ['plain', 'other', false],
      ['spectator', 'self', true],
      ['spectator', 'other', false],
      ['manager', 'self', true],
      ['manager', 'other', false],
      ['admin', 'self', true],
      ['admin', 'other', true],
    ];
    table(
      rows,
      ([k, owner]) => canHandleTimerOf(actor(k), owner === 'self' ? SELF : OTHER),
      ([, , ok]) => ok,
    );
  });
});

describe('weeks (issue 32): submit, decide, the lock date', () => {
  it('canSubmitWeekOf: one’s own week; anyone’s for admins', () => {
    for (const k of KINDS) {
      assert.equal(canSubmitWeekOf(actor(k), SELF), true, k);
      assert.equal(canSubmitWeekOf(actor(k), OTHER), k === 'admin', k);
    }
  });

  it('canDecideWeekOf: the project’s managers, site managers, admins; never one’s own', () => {
    for (const k of KINDS) {
      for (const [name, role] of Object.entries(ROLES)) {
        const siteWide = k === 'admin' || k === 'manager';
        const expected = siteWide || name === 'manager';
        assert.equal(canDecideWeekOf(actor(k), OTHER, role), expected, `${k} ${name}`);
        assert.equal(canDecideWeekOf(actor(k), SELF, role), false, `${k} ${name} own`);
      }
    }
  });

  it('canSetLockDate: admins only', () => {
    for (const k of KINDS) assert.equal(canSetLockDate(actor(k)), k === 'admin', k);
  });
});

describe('canSetUserField (POST /users and POST /users/:username)', () => {
  const PROFILE: UserField[] = ['display_name', 'email', 'meta', 'org-roles'];
  const ALL: UserField[] = [
    ...PROFILE,
    'password',
    'site_spectator',
    'site_manager',
    'site_admin',
    'active',
  ];

  it('admins any field of anyone; managers others’ profile and site_spectator; users their own profile', () => {
    //   actor        target    fields the actor may set
    const rows: [Kind, 'new' | 'self' | 'other', UserField[]][] = [
      ['admin', 'new', ALL],
      ['admin', 'self', ALL],
      ['admin', 'other', ALL],
      ['manager', 'new', [...PROFILE, 'password', 'site_spectator']],
      ['manager', 'self', [...PROFILE, 'password']],
      ['manager', 'other', [...PROFILE, 'site_spectator']],
      ['spectator', 'new', []],
      ['spectator', 'self', [...PROFILE, 'password']],
      ['spectator', 'other', []],
      ['plain', 'new', []],
      ['plain', 'self', [...PROFILE, 'password']],
      ['plain', 'other', []],
    ];
    for (const [k, target, allowed] of rows) {
      const id = target === 'new' ? undefined : target === 'self' ? SELF : OTHER;
      const got = ALL.filter((field) => canSetUserField(actor(k), id, field));
      assert.deepEqual(got.sort(), [...allowed].sort(), `${k} → ${target}`);
    }
  });

  it('with a personal token: the same, but never a site flag nor an existing password', () => {
    //   actor        target    fields the actor may set with a personal token
    const rows: [Kind, 'new' | 'self' | 'other', UserField[]][] = [
      ['admin', 'new', [...PROFILE, 'password']],
      ['admin', 'self', PROFILE],
      ['admin', 'other', PROFILE],
      ['manager', 'new', [...PROFILE, 'password']],
      ['manager', 'self', PROFILE],
      ['manager', 'other', PROFILE],
      ['plain', 'self', PROFILE],
      ['plain', 'other', []],
    ];
    for (const scope of ['read', 'write'] as const) {
      for (const [k, target, allowed] of rows) {
        const id = target === 'new' ? undefined : target === 'self' ? SELF : OTHER;
        const viaToken = { ...actor(k), personalToken: { id: 1, scope } };
        const got = ALL.filter((field) => canSetUserField(viaToken, id, field));
        assert.deepEqual(got.sort(), [...allowed].sort(), `${k} → ${target} (${scope})`);
      }
    }
  });
});

describe('personal API tokens (issue 33)', () => {
  const via = (k: Kind, scope?: 'read' | 'write'): Actor =>
    scope ? { ...actor(k), personalToken: { id: 1, scope } } : actor(k);

  it('a read-only token writes nothing; a write token and a login token do', () => {
    for (const k of KINDS) {
      assert.equal(mayWrite(via(k)), true);
      assert.equal(mayWrite(via(k, 'write')), true);
      assert.equal(mayWrite(via(k, 'read')), false);
    }
  });

  it('tokens are listed by their owner and admins; revoked by them, never with a personal token', () => {
    //   actor     owner     list   revoke (login token)
    const rows: [Kind, 'self' | 'other', boolean, boolean][] = [
      ['admin', 'self', true, true],
      ['admin', 'other', true, true],
      ['manager', 'self', true, true],
      ['manager', 'other', false, false],
      ['spectator', 'other', false, false],
      ['plain', 'self', true, true],
      ['plain', 'other', false, false],
    ];
    for (const [k, owner, list, revoke] of rows) {
      const ownerId = owner === 'self' ? SELF : OTHER;
      assert.equal(canListTokensOf(actor(k), ownerId), list, `${k} lists ${owner}`);
      assert.equal(canRevokeToken(actor(k), ownerId), revoke, `${k} revokes ${owner}`);
      assert.equal(canRevokeToken(via(k, 'write'), ownerId), false, `${k} by token`);
    }
  });
});
