// Personal API tokens (issue 33, docs/api-tokens.md): as GET /v0/tokens shows them, the
// one answer that also holds the secret (POST /v0/tokens), and what POST accepts.
import { CalendarDate } from './common';
import {
  component,
  type Infer,
  integer,
  nullable,
  object,
  oneOfValues,
  shown,
  string,
} from './kit';

const scope = oneOfValues(['read', 'write'] as const, {
  description: '`read`: every write is refused (kind 9); `write`: acts as the owner',
});

const fields = {
  id: integer({ minimum: 1 }),
  name: string({ minLength: 1, maxLength: 100 }),
  scope,
  created_at: CalendarDate.ref,
  expires_at: nullable(string({ format: 'date' }), {
    description: 'Refused from 00:00 UTC of this date on; null: never expires',
  }),
  last_used_at: nullable(string({ format: 'date-time' }), {
    description: 'The minute of its last use (ISO 8601, UTC), kept at most once a minute',
  }),
};

export const PersonalToken = component('PersonalToken', shown(fields));
export type PersonalToken = Infer<typeof PersonalToken>;

export const NewPersonalToken = component(
  'NewPersonalToken',
  shown({
    ...fields,
    token: string({
      pattern: '^tt_[A-Za-z0-9_-]{43}$',
      description: 'The secret: shown in this answer only, stored as a hash',
    }),
  }),
);
export type NewPersonalToken = Infer<typeof NewPersonalToken>;

export const PersonalTokenCreate = component(
  'PersonalTokenCreate',
  object(
    {
      name: fields.name,
      scope,
      expires_at: nullable(string({ format: 'date' }), {
        description: 'A date after today (UTC), or null (the default): never expires',
      }),
    },
    ['name', 'scope'],
  ),
);
export type PersonalTokenCreate = Infer<typeof PersonalTokenCreate>;
