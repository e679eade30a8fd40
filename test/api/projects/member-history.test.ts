// Project history shows who was added to and removed from a project (issue 34): every
// revision of GET /v0/projects/:uuid/history carries the users map it had, while
// include_revisions still answers TimeSync's parents, without one (SPEC §4.1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  server = await startTestServer();
  alice = await createUser(server);
  bob = await createUser(server);
});

after(async () => {
  await server?.close();
});

describe('project history and membership', () => {
  it("shows each revision's users map, and parents stay without one", async () => {
    const admin = server.adminToken;
    const member = { member: true, spectator: false, manager: false };
    const manager = { member: true, spectator: false, manager: true };
    const project = await createProject(server, { users: { [alice.username]: { member: true } } });
    const slug = project.slugs[0] as string;
    const users2 = {
      [alice.username]: { member: true, manager: true },
      [bob.username]: { member: true },
    };
    assert.equal(
      (await server.api.post(`/projects/${slug}`, admin, { users: users2 })).status,
      200,
    );
    const users3 = { [bob.username]: { member: true } };
    assert.equal(
      (await server.api.post(`/projects/${slug}`, admin, { users: users3 })).status,
      200,
    );

    const history = await server.api.get(`/projects/${project.uuid}/history`, bob.token);
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(
      history.body.map((r: { revision: number; users: unknown }) => [r.revision, r.users]),
      [
        [3, { [bob.username]: member }],
        [2, { [alice.username]: manager, [bob.username]: member }],
        [1, { [alice.username]: member }],
      ],
    );
    const withParents = await server.api.get(`/projects/${slug}`, admin, { include_revisions: '' });
    for (const parent of withParents.body.parents) assert.equal('users' in parent, false);
  });
});
