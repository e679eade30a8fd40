// Kept timesheet rows (issue 34): GET and PUT /v0/weeks/:username/:week/rows through real
// HTTP. A round trip in the order sent; a row with an entry that week left out (and
// shown again in no other week); duplicates collapsed; a deleted project's rows hidden;
// the exact SPEC §7 errors for bad input, in SPEC §3's order, with nothing written.
// Who may read and write whose rows is in the permissions table (authz-matrix.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../helpers/api';
import {
  authorizationBody,
  badObjectBody,
  foreignKeyBody,
  invalidIdentifierBody,
  notFoundBody,
} from '../../helpers/errors';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let P: string;
let Q: string;
let dev: string;
let docs: string;

// 2026-W10 is Monday 2026-03-02 to Sunday 2026-03-08.
const WEEK = '2026-W10';

const put = (token: string, user: string, week: string, object: unknown): Promise<Reply<any>> =>
  server.api.raw(`/v0/weeks/${user}/${week}/rows`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ object }),
  });
const get = (token: string, user: string, week: string) =>
  server.api.get(`/weeks/${user}/${week}/rows`, token);
const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};
/** The rows as [first slug, activities] pairs. */
const pairs = (body: { rows: { project: string[]; activities: string[] }[] }) =>
  body.rows.map((r) => [r.project[0], r.activities]);

before(async () => {
  server = await startTestServer();
  alice = await createUser(server);
  bob = await createUser(server);
  dev = (await createActivity(server)).slug;
  docs = (await createActivity(server)).slug;
  const users = { [alice.username]: { member: true }, [bob.username]: { member: true } };
  P = (await createProject(server, { users, default_activity: dev })).slugs[0] as string;
  Q = (await createProject(server, { users })).slugs[0] as string;
});

after(async () => {
  await server?.close();
});

describe('kept timesheet rows', () => {
  it('answers no rows for a week where none were kept', async () => {
    assert.deepEqual(ok(await get(alice.token, alice.username, '2026-W01')), { rows: [] });
  });

  it('keeps the rows sent, in their order, per user and week, and a PUT replaces them', async () => {
    const sent = {
      rows: [
        { project: Q, activities: [docs, dev] },
        { project: P, activities: [] },
        { project: P, activities: [dev] },
      ],
    };
    const answer = ok(await put(alice.token, alice.username, WEEK, sent));
    const expected = [
      [Q, [dev, docs].sort()],
      [P, []],
      [P, [dev]],
    ];
    assert.deepEqual(pairs(answer), expected);
    // Another request, as another device would ask; the username in any case.
    assert.deepEqual(
      pairs(ok(await get(alice.token, alice.username.toUpperCase(), WEEK))),
      expected,
    );
    assert.deepEqual(ok(await get(alice.token, alice.username, '2026-W11')), { rows: [] });
    assert.deepEqual(ok(await get(bob.token, bob.username, WEEK)), { rows: [] });
    ok(await put(alice.token, alice.username, WEEK, { rows: [{ project: P, activities: [dev] }] }));
    assert.deepEqual(pairs(ok(await get(alice.token, alice.username, WEEK))), [[P, [dev]]]);
  });

  it('collapses duplicate rows (activities in any order)', async () => {
    const rows = [
      { project: Q, activities: [dev, docs] },
      { project: Q, activities: [docs, dev, dev] },
    ];
    const answer = ok(await put(bob.token, bob.username, '2026-W12', { rows }));
    assert.deepEqual(pairs(answer), [[Q, [dev, docs].sort()]]);
  });

  it('leaves out a row once it has an entry that week, and does not store it again', async () => {
    const week = '2026-W14'; // 2026-03-30 to 2026-04-05
    const rows = [
      { project: P, activities: [dev] },
      { project: Q, activities: [docs] },
    ];
    ok(await put(alice.token, alice.username, week, { rows }));
    const time = ok(
      await server.api.post('/times', alice.token, {
        duration: 3600,
        user: alice.username,
        project: P,
        activities: [dev],
        date_worked: '2026-04-02',
      }),
    );
    assert.deepEqual(pairs(ok(await get(alice.token, alice.username, week))), [[Q, [docs]]]);
    // An entry of the same project with other activities is another row.
    ok(
      await put(alice.token, alice.username, week, {
        rows: [...rows, { project: P, activities: [docs] }],
      }),
    );
    assert.deepEqual(pairs(ok(await get(alice.token, alice.username, week))), [
      [Q, [docs]],
      [P, [docs]],
    ]);
    // Not stored by that PUT: deleting the entry does not bring the row back.
    ok(await server.api.del(`/times/${time.uuid}`, alice.token));
    assert.deepEqual(pairs(ok(await get(alice.token, alice.username, week))), [
      [Q, [docs]],
      [P, [docs]],
    ]);
  });

  it("hides a deleted project's rows and shows a renamed project's slugs", async () => {
    const users = { [alice.username]: { member: true } };
    const gone = (await createProject(server, { users })).slugs[0] as string;
    const renamed = (await createProject(server, { users })).slugs[0] as string;
    const rows = [
      { project: gone, activities: [] },
      { project: renamed, activities: [] },
    ];
    ok(await put(alice.token, alice.username, '2026-W15', { rows }));
    ok(await server.api.del(`/projects/${gone}`, server.adminToken));
    ok(
      await server.api.post(`/projects/${renamed}`, server.adminToken, {
        slugs: [`${renamed}-x`, renamed],
      }),
    );
    assert.deepEqual(pairs(ok(await get(alice.token, alice.username, '2026-W15'))), [
      [`${renamed}-x`, []],
    ]);
  });

  it("lets an admin keep anyone's rows, and nobody else", async () => {
    const rows = [{ project: P, activities: [dev] }];
    ok(await put(server.adminToken, bob.username, '2026-W16', { rows }));
    assert.deepEqual(pairs(ok(await get(bob.token, bob.username, '2026-W16'))), [[P, [dev]]]);
    assert.deepEqual(
      (await put(alice.token, bob.username, '2026-W16', { rows: [] })).body,
      authorizationBody(alice.username, `keep rows in week 2026-W16 of ${bob.username}`),
    );
    assert.deepEqual(
      (await get(alice.token, bob.username, '2026-W16')).body,
      authorizationBody(alice.username, `read the kept rows of week 2026-W16 of ${bob.username}`),
    );
    assert.deepEqual(pairs(ok(await get(bob.token, bob.username, '2026-W16'))), [[P, [dev]]]);
  });

  describe('bad input gets the exact SPEC §7 error and writes nothing', () => {
    const week = '2026-W20';
    /** A function: P and dev are made by the `before` hook, after this runs. */
    const kept = () => ({ rows: [{ project: P, activities: [dev] }] });
    const rowsText =
      'array of at most 100 rows, each {project: slug, activities: array of at most 20 slugs}';
    const wrong = (received: string) =>
      badObjectBody(`Field rows of timesheet should be ${rowsText} but was sent as ${received}`);
    const cases: [string, () => Promise<Reply>, unknown][] = [
      [
        'a malformed username (kind 5)',
        () => put(alice.token, 'a b', week, kept()),
        invalidIdentifierBody('username', 'a b'),
      ],
      [
        'a malformed week (kind 5)',
        () => put(alice.token, alice.username, '2026-W54', kept()),
        invalidIdentifierBody('week', '2026-W54'),
      ],
      [
        'a malformed week on GET (kind 5)',
        () => get(alice.token, alice.username, '2026-10'),
        invalidIdentifierBody('week', '2026-10'),
      ],
      [
        'an unknown user (kind 1)',
        () => put(alice.token, 'nobody', week, kept()),
        notFoundBody('user'),
      ],
      [
        'an unknown user on GET (kind 1)',
        () => get(alice.token, 'nobody', week),
        notFoundBody('user'),
      ],
      [
        'no rows field (kind 4)',
        () => put(alice.token, alice.username, week, {}),
        badObjectBody('The timesheet is missing a rows'),
      ],
      [
        'an unknown field (kind 4)',
        () => put(alice.token, alice.username, week, { ...kept(), week }),
        badObjectBody('timesheet does not have a week field'),
      ],
      [
        'rows not an array (kind 4)',
        () => put(alice.token, alice.username, week, { rows: 'gwm' }),
        wrong('string'),
      ],
      [
        'a row without activities (kind 4)',
        () => put(alice.token, alice.username, week, { rows: [{ project: P }] }),
        wrong('array'),
      ],
      [
        'a row with a field of its own (kind 4)',
        () =>
          put(alice.token, alice.username, week, {
            rows: [{ project: P, activities: [], hours: 8 }],
          }),
        wrong('array'),
      ],
      [
        'a bad slug (kind 4)',
        () =>
          put(alice.token, alice.username, week, { rows: [{ project: 'Gwm', activities: [] }] }),
        wrong('array'),
      ],
      [
        '101 rows (kind 4)',
        () =>
          put(alice.token, alice.username, week, {
            rows: Array.from({ length: 101 }, () => ({ project: P, activities: [] })),
          }),
        wrong('array'),
      ],
      [
        'an unknown project (kind 3)',
        () =>
          put(alice.token, alice.username, week, { rows: [{ project: 'nope', activities: [] }] }),
        foreignKeyBody('timesheet', 'project'),
      ],
      [
        'an unknown activity (kind 3)',
        () =>
          put(alice.token, alice.username, week, { rows: [{ project: P, activities: ['nope'] }] }),
        foreignKeyBody('timesheet', 'activity'),
      ],
      [
        'an unknown project from another user: kind 3 before kind 9',
        () => put(bob.token, alice.username, week, { rows: [{ project: 'nope', activities: [] }] }),
        foreignKeyBody('timesheet', 'project'),
      ],
    ];
    before(async () => {
      ok(await put(alice.token, alice.username, week, kept()));
    });
    for (const [what, send, expected] of cases) {
      it(what, async () => {
        const res = await send();
        assert.deepEqual(res.body, expected, res.text);
        assert.deepEqual(pairs(ok(await get(alice.token, alice.username, week))), [[P, [dev]]]);
      });
    }
  });
});
