// The one way a handler answers with a list: paging parameters + streamed rows.
import type { Ctx } from './context';
import { type ListQuery, streamList } from './list';
import { pagingParams } from './query';

export function sendList<Row>(ctx: Ctx, list: ListQuery<Row>): Promise<void> {
  const paging = pagingParams(ctx.query, ctx.app.config.defaultLimit);
  return streamList(ctx.res, ctx.app.readers, ctx.url, paging, list);
}
