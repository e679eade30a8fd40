// The one password rule of the web app, wherever it sets a password (the profile's change,
// a new user's initial password, an admin's reset). The API takes only a bcrypt hash made
// by the client (SPEC §4.4), so the client is where a rule can be kept at all.

export const MIN_PASSWORD = 8;

/** Why a new password is refused, or undefined when it will do. */
export function passwordProblem(password: string): string | undefined {
  return password.length < MIN_PASSWORD ? `Use at least ${MIN_PASSWORD} characters` : undefined;
}
