// Logging in (POST /v0/login) and the token a write's body may carry (SPEC §2).
import { anyOf, component, constant, type Infer, object, oneOfValues, shown, string } from './kit';

export const Token = component(
  'Token',
  shown({ token: string({ description: 'A JWT (HS512); exp in milliseconds' }) }),
);
export type Token = Infer<typeof Token>;

export const TokenAuth = component(
  'TokenAuth',
  object({ type: constant('token'), token: string() }, ['type', 'token']),
);
export type TokenAuth = Infer<typeof TokenAuth>;

export const LoginRequest = component(
  'LoginRequest',
  object(
    {
      auth: anyOf([
        object(
          {
            type: oneOfValues(['password', 'ldap'], {
              description: 'As TIMETRACK_AUTH_MODULES enables',
            }),
            username: string(),
            password: string({ description: 'Plain text' }),
          },
          ['type', 'username', 'password'],
        ),
        object(
          {
            type: constant('oidc'),
            code: string({
              description:
                'The one-time code of a finished OpenID Connect sign-in (GET /v0/oidc/callback), good once for 60 s',
            }),
          },
          ['type', 'code'],
        ),
      ]),
    },
    ['auth'],
  ),
);
export type LoginRequest = Infer<typeof LoginRequest>;
