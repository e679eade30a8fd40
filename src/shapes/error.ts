// The body of every error (SPEC §7): its kinds, and the texts each sends.
import { array, component, type Infer, integer, oneOfValues, shown, string } from './kit';

/** Each kind's error name and the HTTP status it answers with: SPEC §7 order, then ours. */
export const ERROR_KINDS = [
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
  ['—', 'Token name already exists', 409],
  ['—', 'Timer too short', 409],
  ['14', 'Period locked', 409],
  ['—', 'Idempotency key in use', 409],
  ['—', 'Idempotency key reused', 422],
  ['—', 'Service unavailable', 503],
] as const satisfies readonly (readonly [kind: string, error: string, status: number])[];

export type ErrorName = (typeof ERROR_KINDS)[number][1];

const errorNames = [...new Set(ERROR_KINDS.map(([, error]) => error))];

export const ErrorBody = component(
  'Error',
  shown(
    {
      status: integer({ description: 'Equals the HTTP status' }),
      error: oneOfValues(errorNames),
      text: string(),
      values: array(string(), {
        description: 'The identifier (kind 5), slugs (8), username (12) or token name at fault',
      }),
    },
    ['values'],
    {
      description: [
        'Every error (SPEC §7). Kinds: ',
        ERROR_KINDS.map(([kind, error, status]) => `${kind} \`${error}\` (${status})`).join('; '),
        '. Texts: 1 `Nonexistent <object>`; 2 `Unexpected server error`; 3 `The <object> does',
        ' not contain a valid <key> reference`; 4 `<object> does not have a <field> field`,',
        ' `The <object> is missing a <field>`, `Field <field> of <object> should be <expected>',
        ' but was sent as <type>`, `The request body could not be parsed as valid JSON`, `The',
        ' request body is larger than 1 MiB` (413); 5 `Expected <slug|uuid|username|token id|week>',
        ' but received <id>`; 6 `Invalid username <name> is not a valid username`; 7 a reason',
        ' (`Missing credentials`, `Invalid token`, `Token has expired`, `Token has been',
        ' revoked`, `Expired token` (a personal token), `Too many failed logins; try again',
        ' later` …); 8 `Slug <s> already exists',
        ' on another object`; 9 `<caller> is not authorized to <action>`; 10 `The method',
        ' specified is not allowed for the <object> identified` (with Allow); 11 `Parameter',
        ' <key> contained invalid value <value>`; 12 `Username <name> already exists`; 13 `A',
        ' timer is already running for <username>`; 14 `Time entries of <user> on <project> in',
        ' week <YYYY-Www> are submitted` (or `are approved`), `Time entries before <YYYY-MM-DD>',
        ' are locked`; personal tokens (409): `Token name <name> already exists`;',
        ' timer stop (409): `The timer of <username> has run <n> seconds, less than one',
        ' rounding step of <step> seconds: nothing was booked`;',
        ' Idempotency-Key (409, 422): `A request with',
        ' this Idempotency-Key is still being answered; try again shortly` (Retry-After),',
        ' `Idempotency-Key was already used for a different request`; 503: the server cannot',
        ' take the request now (Retry-After), e.g. `The database is busy; try again shortly`.',
      ].join(''),
    },
  ),
);
export type ErrorBody = Infer<typeof ErrorBody>;
