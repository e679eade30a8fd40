// The exact error bodies of SPEC §7, for assert.deepEqual in tests.
export const notFoundBody = (object: string) => ({
  status: 404,
  error: 'Object not found',
  text: `Nonexistent ${object}`,
});
export const foreignKeyBody = (object: string, key: string) => ({
  status: 409,
  error: 'Invalid foreign key',
  text: `The ${object} does not contain a valid ${key} reference`,
});
export const badObjectBody = (text: string, status = 400) => ({
  status,
  error: 'Bad object',
  text,
});
export const invalidIdentifierBody = (expected: string, id: string) => ({
  status: 400,
  error: 'Invalid identifier',
  text: `Expected ${expected} but received ${id}`,
  values: [id],
});
export const invalidUsernameBody = (name: string) => ({
  status: 401,
  error: 'Invalid username',
  text: `Invalid username ${name} is not a valid username`,
});
export const authenticationBody = (text: string) => ({
  status: 401,
  error: 'Authentication failure',
  text,
});
export const slugExistsBody = (slug: string) => ({
  status: 409,
  error: 'Slug already exists',
  text: `Slug ${slug} already exists on another object`,
  values: [slug],
});
export const authorizationBody = (caller: string, action: string) => ({
  status: 401,
  error: 'Authorization failure',
  text: `${caller} is not authorized to ${action}`,
});
export const requestFailureBody = (object: string) => ({
  status: 405,
  error: 'Method not allowed',
  text: `The method specified is not allowed for the ${object} identified`,
});
export const badQueryBody = (key: string, value: string) => ({
  status: 400,
  error: 'Bad query value',
  text: `Parameter ${key} contained invalid value ${value}`,
});
export const usernameExistsBody = (name: string) => ({
  status: 409,
  error: 'Username already exists',
  text: `Username ${name} already exists`,
  values: [name],
});
