// Test factories: build objects through the real API as the admin, with overrides.
import { bcryptHash, type TestServer } from './server';

let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}${process.pid % 1000}`;

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
  const res = await server.api.post('/users', server.adminToken, {
    username,
    password: bcryptHash(password),
    ...overrides,
  });
  if (res.status !== 200) throw new Error(`createUser: ${res.status} ${res.text}`);
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
  const res = await server.api.post('/projects', token, {
    name: `Project ${slug}`,
    slugs: [slug],
    ...overrides,
  });
  if (res.status !== 200) throw new Error(`createProject: ${res.status} ${res.text}`);
  return res.body as TestProject;
}

/** Creates an activity through POST /activities (a fresh slug by default). */
export async function createActivity(
  server: TestServer,
  overrides: Record<string, unknown> = {},
  token = server.adminToken,
): Promise<TestActivity> {
  const slug = uniqueSlug('act');
  const res = await server.api.post('/activities', token, {
    name: `Activity ${slug}`,
    slug,
    ...overrides,
  });
  if (res.status !== 200) throw new Error(`createActivity: ${res.status} ${res.text}`);
  return res.body as TestActivity;
}
