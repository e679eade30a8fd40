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
