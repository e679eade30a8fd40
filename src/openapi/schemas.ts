// The component schemas of GET /v0/openapi.json: the objects the API answers (SPEC §4),
// the objects POST accepts (the resources' schema.ts), the error body (SPEC §7) and the
// extensions of SPEC §11. JSON Schema 2020-12, as OpenAPI 3.1 has it. The test helpers
// validate every reply the HTTP suite receives against these, so they cannot drift.

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (type: string, extra: Record<string, unknown> = {}) => ({
  type: [type, 'null'],
  ...extra,
});
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

const slug = {
  type: 'string',
  pattern: '^(?=[a-z0-9-]*[a-z])[a-z0-9]+(-[a-z0-9]+)*$',
  maxLength: 64,
  description: 'Lower-case letters and digits in groups joined by single hyphens, with a letter',
};
const username = {
  type: 'string',
  pattern: '^[A-Za-z0-9._~-]{1,64}$',
  description: 'Matched in any letter case; shown as created',
};
const uuid = { type: 'string', format: 'uuid' };
const date = { type: 'string', format: 'date', description: 'YYYY-MM-DD (UTC)' };
const nullableDate = nullable('string', { format: 'date' });
const httpUri = { type: 'string', pattern: '^[hH][tT][tT][pP][sS]?:', maxLength: 2048 };
export const duration = { type: 'integer', minimum: 0, maximum: 2_147_483_647 };

/** The fields every revisioned object shows (SPEC §4, §5). */
const revisioned = {
  uuid: ref('Uuid'),
  revision: { type: 'integer', minimum: 1 },
  created_at: ref('Date'),
  updated_at: ref('NullableDate'),
  deleted_at: ref('NullableDate'),
};

/** A closed object: every listed property present (SPEC §1: unset is null, never absent). */
function shown(properties: Record<string, unknown>, optional: string[] = []) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  };
}

/** A closed object of which only `required` must be sent (a POST's `object`). */
export function accepted(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', properties, required, additionalProperties: false };
}

const parents = (revision: string) => ({
  type: 'array',
  items: ref(revision),
  description: 'With include_revisions: every earlier revision, newest first',
});

// --- what the API answers -------------------------------------------------------------

const projectRevisionFields = {
  name: text(1, 255),
  slugs: { type: 'array', items: ref('Slug') },
  uri: nullable('string'),
  owner: nullable('string'),
  default_activity: nullable('string'),
};
const projectRole = shown({
  member: { type: 'boolean' },
  spectator: { type: 'boolean' },
  manager: { type: 'boolean' },
});

const activityFields = { name: text(1, 255), slug: ref('Slug') };
/**
 * As shown: an activity the old reference server deleted lost its slug (it set it to
 * NULL), and one migrated from it shows `slug: null`, deleted (docs/backups.md).
 */
const shownActivityFields = {
  ...activityFields,
  slug: { oneOf: [ref('Slug'), { type: 'null' }] },
};

const timeFields = {
  duration,
  user: ref('Username'),
  project: {
    type: 'array',
    items: ref('Slug'),
    description: "All the project's slugs (one slug when sent)",
  },
  activities: { type: 'array', items: ref('Slug') },
  date_worked: ref('Date'),
  issue_uri: nullable('string'),
  notes: nullable('string'),
};

/**
 * What GET …/{uuid}/history adds to each revision (issue 29); include_revisions answers
 * TimeSync's shape alone, so a parent is exactly what the revision's GET answered.
 */
const change = {
  changed_by: {
    ...nullable('string'),
    description: 'The username of whoever made this revision (null: not recorded)',
  },
  changed_at: {
    type: 'string',
    format: 'date-time',
    description: 'When this revision was made: ISO 8601 in UTC with milliseconds',
  },
};

/** One revision in a history: the object as it was served, then who made it and when. */
const historyOf = (fields: Record<string, unknown>, optional: string[] = []) =>
  shown({ ...fields, ...change }, optional);

const projectUsers = {
  type: 'object',
  additionalProperties: ref('ProjectRole'),
  description: 'username → permissions; {} when none',
};

const responses = {
  Project: shown(
    {
      ...projectRevisionFields,
      users: projectUsers,
      ...revisioned,
      parents: parents('ProjectRevision'),
    },
    ['parents'],
  ),
  ProjectRevision: shown({ ...projectRevisionFields, ...revisioned }),
  ProjectRole: projectRole,
  Activity: shown({ ...shownActivityFields, ...revisioned, parents: parents('ActivityRevision') }, [
    'parents',
  ]),
  ActivityRevision: shown({ ...shownActivityFields, ...revisioned }),
  Time: shown({ ...revisioned, ...timeFields, parents: parents('TimeRevision') }, ['parents']),
  TimeRevision: shown({ ...revisioned, ...timeFields }),
  // The current revision alone has `users`: TimeSync keeps no history of the map.
  ProjectHistoryRevision: historyOf(
    { ...projectRevisionFields, users: projectUsers, ...revisioned },
    ['users'],
  ),
  ActivityHistoryRevision: historyOf({ ...shownActivityFields, ...revisioned }),
  TimeHistoryRevision: historyOf({ ...revisioned, ...timeFields }),
  User: shown({
    username: ref('Username'),
    display_name: nullable('string'),
    email: nullable('string'),
    'org-roles': { type: 'array', items: ref('Slug') },
    site_spectator: { type: 'boolean' },
    site_manager: { type: 'boolean' },
    site_admin: { type: 'boolean' },
    active: { type: 'boolean' },
    meta: nullable('string'),
    created_at: ref('Date'),
    updated_at: ref('NullableDate'),
    deleted_at: ref('NullableDate'),
  }),
  OrgRole: shown({ name: text(1, 255), slug: ref('Slug') }),
  Token: shown({ token: { type: 'string', description: 'A JWT (HS512); exp in milliseconds' } }),
  Health: shown({ status: { const: 'ok' } }),
};

// --- what POST accepts ----------------------------------------------------------------

const projectInput = {
  name: text(1, 255),
  slugs: { type: 'array', items: ref('Slug'), minItems: 1, maxItems: 16 },
  uri: { anyOf: [httpUri, { const: '' }, { type: 'null' }], description: "'' means null" },
  owner: { ...nullable('string'), description: "A username; '' means null" },
  default_activity: { ...nullable('string'), description: "An activity slug; '' means null" },
  users: {
    type: ['object', 'null'],
    additionalProperties: accepted({
      member: { type: 'boolean' },
      spectator: { type: 'boolean' },
      manager: { type: 'boolean' },
    }),
    description: 'Replaces the whole map; a missing flag is false; null empties it',
  },
};
const timeInput = {
  duration,
  user: ref('Username'),
  project: ref('Slug'),
  activities: { type: 'array', items: ref('Slug') },
  date_worked: ref('Date'),
  issue_uri: { anyOf: [httpUri, { const: '' }, { type: 'null' }], description: "'' means null" },
  notes: nullable('string', { maxLength: 10_000 }),
};
const userInput = {
  display_name: nullable('string', { maxLength: 255 }),
  password: {
    type: 'string',
    pattern: '^\\$2[aby]\\$\\d{2}\\$[./A-Za-z0-9]{53}$',
    description: 'A bcrypt hash made by the client; write-only',
  },
  email: { ...nullable('string', { maxLength: 254 }), description: "'' means null" },
  'org-roles': { type: ['array', 'null'], items: ref('Slug') },
  site_spectator: { type: 'boolean' },
  site_manager: { type: 'boolean' },
  site_admin: { type: 'boolean' },
  active: { type: 'boolean' },
  meta: nullable('string', { maxLength: 10_000 }),
};

const requests = {
  ProjectCreate: accepted(projectInput, ['name', 'slugs']),
  ProjectUpdate: accepted(projectInput),
  ActivityCreate: accepted(activityFields, ['name', 'slug']),
  ActivityUpdate: accepted(activityFields),
  // Restore (issue 17): left out, the slugs it had when deleted are taken back.
  ProjectRestore: accepted({ slugs: projectInput.slugs }),
  ActivityRestore: accepted({ slug: activityFields.slug }),
  TimeCreate: accepted(timeInput, ['duration', 'user', 'project', 'date_worked']),
  TimeUpdate: accepted({ ...timeInput, activities: { ...timeInput.activities, minItems: 1 } }),
  UserCreate: accepted(
    {
      username: ref('Username'),
      displayname: { ...userInput.display_name, description: 'Same as display_name' },
      ...userInput,
    },
    ['username'],
  ),
  UserUpdate: accepted(userInput),
  OrgRoleCreate: accepted({ name: text(1, 255), slug: ref('Slug') }, ['name', 'slug']),
  OrgRoleUpdate: accepted({ name: text(1, 255), slug: ref('Slug') }),
  TokenAuth: accepted({ type: { const: 'token' }, token: { type: 'string' } }, ['type', 'token']),
  LoginRequest: accepted(
    {
      auth: accepted(
        {
          type: { enum: ['password', 'ldap'], description: 'As TIMETRACK_AUTH_MODULES enables' },
          username: { type: 'string' },
          password: { type: 'string', description: 'Plain text' },
        },
        ['type', 'username', 'password'],
      ),
    },
    ['auth'],
  ),
};

// --- the error body (SPEC §7) -----------------------------------------------------------

/** error name → its HTTP status; the kinds in SPEC §7 order, then ours. */
export const ERROR_KINDS: readonly (readonly [kind: string, error: string, status: number])[] = [
  ['1', 'Object not found', 404],
  ['2', 'Server error', 500],
  ['3', 'Invalid foreign key', 409],
  ['4', 'Bad object', 400],
  ['4', 'Bad object', 413],
  ['5', 'Invalid identifier', 400],
  ['6', 'Invalid username', 401],
  ['7', 'Authentication failure', 401],
  ['8', 'Slug already exists', 409],
  ['8', 'Slugs already exist', 409],
  ['9', 'Authorization failure', 401],
  ['10', 'Method not allowed', 405],
  ['11', 'Bad query value', 400],
  ['12', 'Username already exists', 409],
  ['13', 'Timer already running', 409],
  ['—', 'Service unavailable', 503],
];

const errorNames = [...new Set(ERROR_KINDS.map(([, error]) => error))];

const errorSchema = {
  ...shown(
    {
      status: { type: 'integer', description: 'Equals the HTTP status' },
      error: { enum: errorNames },
      text: { type: 'string' },
      values: {
        type: 'array',
        items: { type: 'string' },
        description: 'The identifier (kind 5), slugs (8) or username (12) at fault',
      },
    },
    ['values'],
  ),
  description: [
    'Every error (SPEC §7). Kinds: ',
    ERROR_KINDS.map(([kind, error, status]) => `${kind} \`${error}\` (${status})`).join('; '),
    '. Texts: 1 `Nonexistent <object>`; 2 `Unexpected server error`; 3 `The <object> does',
    ' not contain a valid <key> reference`; 4 `<object> does not have a <field> field`,',
    ' `The <object> is missing a <field>`, `Field <field> of <object> should be <expected>',
    ' but was sent as <type>`, `The request body could not be parsed as valid JSON`, `The',
    ' request body is larger than 1 MiB` (413); 5 `Expected <slug|uuid|username> but',
    ' received <id>`; 6 `Invalid username <name> is not a valid username`; 7 a reason',
    ' (`Missing credentials`, `Invalid token`, `Token has expired`, `Token has been',
    ' revoked`, `Too many failed logins; try again later` …); 8 `Slug <s> already exists',
    ' on another object`; 9 `<caller> is not authorized to <action>`; 10 `The method',
    ' specified is not allowed for the <object> identified` (with Allow); 11 `Parameter',
    ' <key> contained invalid value <value>`; 12 `Username <name> already exists`; 13 `A',
    ' timer is already running for <username>`; 503: the server cannot take the request',
    ' now (Retry-After), e.g. `The database is busy; try again shortly`.',
  ].join(''),
};

/** The error body of one HTTP status: only the kinds that answer with it. */
export function errorOfStatus(status: number) {
  const names = [...new Set(ERROR_KINDS.filter((k) => k[2] === status).map((k) => k[1]))];
  return {
    type: 'object',
    allOf: [ref('Error')],
    properties: { status: { const: status }, error: { enum: names } },
  };
}

export const schemas = {
  Slug: slug,
  Username: username,
  Uuid: uuid,
  Date: date,
  NullableDate: nullableDate,
  ...responses,
  ...requests,
  Error: errorSchema,
};
