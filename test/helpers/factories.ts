// Test factories: build objects through the real API as the admin, with overrides.
import { ADMIN, bcryptHash, type TestServer } from './server';

let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}${process.pid % 1000}`;

/** A POST that sets a test up: anything but 200 stops the test right there. */
async function setupPost<T>(
  server: TestServer,
  token: string,
  path: string,
  object: Record<string, unknown>,
): Promise<T> {
  const res = await server.api.post(path, token, object);
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.body as T;
}

export interface TestUser {
  username: string;
  password: string;
  token: string;
}

/** Creates a user through POST /users and logs it in. */
export async function createUser(
  server: TestServer,
  overrides: Record<string, unknown> = {},
): Promise<TestUser> {
  const username = (overrides.username as string | undefined) ?? unique('user');
  const password = `pw-${username}`;
  await setupPost(server, server.adminToken, '/users', {
    username,
    password: bcryptHash(password),
    ...overrides,
  });
  const token = await server.api.login(username, password);
  return { username, password, token };
}

/** A fresh slug for this test process. */
export const uniqueSlug = (prefix = 'p') => unique(`${prefix}-`);

export type TestProject = { slugs: string[]; uuid: string } & Record<string, unknown>;
export type TestActivity = { slug: string; uuid: string; name: string } & Record<string, unknown>;

/** Creates a project through POST /projects (one fresh slug, no users by default). */
export async function createProject(
  server: TestServer,
  overrides: Record<string, unknown> = {},
  token = server.adminToken,
): Promise<TestProject> {
  const slug = uniqueSlug('proj');
  return setupPost<TestProject>(server, token, '/projects', {
    name: `Project ${slug}`,
    slugs: [slug],
    ...overrides,
  });
}

/** Creates an activity through POST /activities (a fresh slug by default). */
export async function createActivity(
  server: TestServer,
  overrides: Record<string, unknown> = {},
  token = server.adminToken,
): Promise<TestActivity> {
  const slug = uniqueSlug('act');
  return setupPost<TestActivity>(server, token, '/activities', {
    name: `Activity ${slug}`,
    slug,
    ...overrides,
  });
}

/**
 * A fresh activity and a project with it as the default activity, the admin a member:
 * where the admin's times are made (e.g. by helpers/bulk.ts insertTimes). Their slugs.
 */
export async function createAdminProject(
  server: TestServer,
): Promise<{ project: string; activity: string }> {
  const activity = (await createActivity(server)).slug;
  const project = await createProject(server, {
    default_activity: activity,
    users: { [ADMIN.username]: { member: true } },
  });
  return { project: project.slugs[0] as string, activity };
}

export type TestRole = { name: string; slug: string };

/** Creates an org role through POST /users/org-roles, named after its slug. */
export async function createRole(
  server: TestServer,
  overrides: Record<string, unknown> = {},
  token = server.adminToken,
): Promise<TestRole> {
  const slug = (overrides.slug as string | undefined) ?? uniqueSlug('role');
  return setupPost<TestRole>(server, token, '/users/org-roles', {
    name: `Role ${slug}`,
    slug,
    ...overrides,
  });
}
