// Handlers of /v0/users and /v0/users/:username. Typed as http/'s CallerHandler<Actor>
// (what auth/session.ts calls SignedInHandler): auth/ reads accounts from users/, so
// users/ does not import auth/.
import type { CallerHandler } from '../http/context';
import { writeHandlers } from '../http/handlers';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { usernameFromPath } from '../identifiers';
import type { Actor } from '../policy';
import type { UserService } from './service';

export function userRoutes(users: UserService) {
  return {
    list: (ctx, _actor) => sendList(ctx, users.list(ctx.query)),
    get: (ctx, _actor) =>
      sendJson(ctx.res, 200, users.get(usernameFromPath(ctx.params.username), ctx.query)),
    ...writeHandlers<Actor>(users, (params) => usernameFromPath(params.username)),
  } satisfies Record<string, CallerHandler<Actor>>;
}
