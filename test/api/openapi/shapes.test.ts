// One source for each shape (issue 30, item 8): every object the API answers or accepts
// is declared once, in src/shapes/. The served OpenAPI document lists exactly those
// declarations, and what the server sends has exactly the keys they list. So a field
// added to a shape shows in the document and fails here until the server sends it (the
// compiler asks for it first: each json.ts is typed against the shape, and the web app's
// types are the shapes), and a field the server sends that its shape lacks fails here and
// in every reply's check against the document (test/helpers/openapi-check.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { COMPONENTS } from '../../../src/openapi/schemas';
import { Activity, ActivityRevision } from '../../../src/shapes/activity';
import { Token } from '../../../src/shapes/auth';
import { ErrorBody } from '../../../src/shapes/error';
import { Health, Info } from '../../../src/shapes/meta';
import { OrgRole } from '../../../src/shapes/org-role';
import { Project, ProjectRevision, ProjectRole } from '../../../src/shapes/project';
import { Report, ReportRow } from '../../../src/shapes/report';
import { Time, TimeRevision } from '../../../src/shapes/time';
import { Timer } from '../../../src/shapes/timer';
import { User } from '../../../src/shapes/user';
import type { Reply } from '../../helpers/api';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/server';

interface Shape {
  name: string;
  schema: { properties: object; required: readonly string[] };
}

const sorted = (keys: Iterable<string>) => [...keys].sort();
/** The keys every answer has. */
const required = (shape: Shape) => sorted(shape.schema.required);
/** Every key the shape lists (the optional ones only some requests add). */
const all = (shape: Shape) => sorted(Object.keys(shape.schema.properties));
const keysOf = (body: unknown) => sorted(Object.keys(body as object));

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};

let server: TestServer;
let token: string;

/** A project `user` is a member of, with a default activity: its slug. */
async function memberProject(user: TestUser): Promise<string> {
  const activity = await createActivity(server);
  const project = await createProject(server, {
    default_activity: activity.slug,
    users: { [user.username]: { member: true } },
  });
  return project.slugs[0] as string;
}
before(async () => {
  server = await startTestServer();
  token = server.adminToken;
});
after(() => server.close());

describe('the served OpenAPI document', () => {
  it('lists each shape of src/shapes/ with its keys, and no other schema', async () => {
    const doc = ok(await server.api.get('/openapi.json'));
    const served = doc.components.schemas as Record<string, any>;
    assert.deepEqual(sorted(Object.keys(served)), sorted(COMPONENTS.map((c) => c.name)));
    for (const c of COMPONENTS) {
      const shape = c.schema as unknown as Shape['schema'] & { type?: string };
      if (shape.type !== 'object') continue;
      assert.deepEqual(sorted(Object.keys(served[c.name].properties)), all(c as any), c.name);
      assert.deepEqual(sorted(served[c.name].required), required(c as any), c.name);
      assert.equal(served[c.name].additionalProperties, false, `${c.name} is closed`);
    }
  });
});

describe("what the server sends has exactly its shape's keys", () => {
  it('a time entry, listed, alone, and with its revisions', async () => {
    const user = await createUser(server);
    const created = ok(
      await server.api.post('/times', user.token, {
        duration: 60,
        user: user.username,
        project: await memberProject(user),
        date_worked: '2024-03-20',
      }),
    );
    assert.deepEqual(keysOf(created), required(Time));
    const alone = ok(await server.api.get(`/times/${created.uuid}`, user.token));
    assert.deepEqual(keysOf(alone), required(Time));
    for (const listed of ok(await server.api.get('/times', user.token))) {
      assert.deepEqual(keysOf(listed), required(Time));
    }
    ok(await server.api.post(`/times/${created.uuid}`, user.token, { duration: 120 }));
    const history = ok(
      await server.api.get(`/times/${created.uuid}`, user.token, { include_revisions: true }),
    );
    assert.deepEqual(keysOf(history), all(Time));
    assert.equal(history.parents.length, 1);
    assert.deepEqual(keysOf(history.parents[0]), all(TimeRevision));
  });

  it('a project and its roles, and with its revisions', async () => {
    const user = await createUser(server);
    const project = await createProject(server, { users: { [user.username]: { member: true } } });
    assert.deepEqual(keysOf(project), required(Project));
    assert.deepEqual(keysOf((project.users as any)[user.username]), all(ProjectRole));
    for (const listed of ok(await server.api.get('/projects', token))) {
      assert.deepEqual(keysOf(listed), required(Project));
    }
    ok(await server.api.post(`/projects/${project.slugs[0]}`, token, { name: 'Renamed' }));
    const history = ok(
      await server.api.get(`/projects/${project.slugs[0]}`, token, { include_revisions: true }),
    );
    assert.deepEqual(keysOf(history), all(Project));
    assert.deepEqual(keysOf(history.parents[0]), all(ProjectRevision));
  });

  it('an activity, and with its revisions', async () => {
    const activity = await createActivity(server);
    assert.deepEqual(keysOf(activity), required(Activity));
    for (const listed of ok(await server.api.get('/activities', token))) {
      assert.deepEqual(keysOf(listed), required(Activity));
    }
    ok(await server.api.post(`/activities/${activity.slug}`, token, { name: 'Renamed' }));
    const history = ok(
      await server.api.get(`/activities/${activity.slug}`, token, { include_revisions: true }),
    );
    assert.deepEqual(keysOf(history), all(Activity));
    assert.deepEqual(keysOf(history.parents[0]), all(ActivityRevision));
  });

  it('a user and an org role', async () => {
    const role = ok(await server.api.post('/users/org-roles', token, { name: 'Dev', slug: 'dev' }));
    assert.deepEqual(keysOf(role), all(OrgRole));
    assert.deepEqual(keysOf(ok(await server.api.get('/users/org-roles/dev', token))), all(OrgRole));
    const user = await createUser(server, { 'org-roles': ['dev'] });
    const shown = ok(await server.api.get(`/users/${user.username}`, token));
    assert.deepEqual(keysOf(shown), all(User));
    for (const listed of ok(await server.api.get('/users', token))) {
      assert.deepEqual(keysOf(listed), all(User));
    }
  });

  it('a timer', async () => {
    const user = await createUser(server);
    const project = await memberProject(user);
    const started = ok(await server.api.post('/timer', user.token, { project }));
    assert.deepEqual(keysOf(started), all(Timer));
    assert.deepEqual(keysOf(ok(await server.api.get('/timer', user.token))), all(Timer));
    const stopped = ok(await server.api.post('/timer/stop', user.token, { duration: 5 }));
    assert.deepEqual(keysOf(stopped), required(Time));
  });

  it('a report and its rows', async () => {
    const user = await createUser(server);
    ok(
      await server.api.post('/times', user.token, {
        duration: 3600,
        user: user.username,
        project: await memberProject(user),
        date_worked: '2024-03-20',
      }),
    );
    const report = ok(
      await server.api.get('/reports', user.token, {
        start: '2024-03-01',
        end: '2024-03-31',
        group_by: ['project', 'user', 'week'],
      }),
    );
    assert.deepEqual(keysOf(report), all(Report));
    assert.ok(report.rows.length > 0);
    // A row has a key per grouping (a project also its name) and the totals the shape
    // requires: keys the shape lists, and no other.
    const grouped = ['project', 'project_name', 'user', 'week'];
    for (const row of report.rows) {
      assert.deepEqual(keysOf(row), sorted([...grouped, ...required(ReportRow)]));
      assert.deepEqual(
        keysOf(row).filter((k) => !all(ReportRow).includes(k)),
        [],
        'keys the shape lacks',
      );
    }
    assert.deepEqual(keysOf(report.total), required(ReportRow));
  });

  it('an error, with and without its values', async () => {
    const missing = await server.api.get('/times/00000000-0000-4000-8000-000000000000', token);
    assert.equal(missing.status, 404);
    assert.deepEqual(keysOf(missing.body), required(ErrorBody));
    const invalid = await server.api.get('/times/not-a-uuid', token);
    assert.equal(invalid.status, 400);
    assert.deepEqual(keysOf(invalid.body), all(ErrorBody));
  });

  it('a token, the server info and its health', async () => {
    const login = await server.api.raw('/v0/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth: { type: 'password', ...ADMIN } }),
    });
    assert.deepEqual(keysOf(ok(login)), all(Token));
    assert.deepEqual(keysOf(ok(await server.api.get('/info'))), all(Info));
    assert.deepEqual(keysOf(ok(await server.api.raw('/health'))), all(Health));
  });
});
