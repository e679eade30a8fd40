// The entries page's settings, kept in the URL (a URL is a bookmark of what is shown):
// ?start=&end=&project=&activity=&user=&deleted=1&page=2. `user` absent means the
// signed-in user; `user=*` everyone whose entries the caller may see (SPEC §3).
import type { TimesQuery } from '../api';

export const PAGE_SIZE = 50;
export const EVERYONE = '*';

export interface EntryFilters {
  start: string;
  end: string;
  project: string;
  activity: string;
  user: string;
  deleted: boolean;
  page: number;
}

export function readFilters(query: URLSearchParams, me: string): EntryFilters {
  const page = Number(query.get('page'));
  return {
    start: query.get('start') ?? '',
    end: query.get('end') ?? '',
    project: query.get('project') ?? '',
    activity: query.get('activity') ?? '',
    user: query.get('user') ?? me,
    deleted: query.get('deleted') === '1',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

export function filtersUrl(f: EntryFilters, me: string): string {
  const q = new URLSearchParams();
  if (f.start) q.set('start', f.start);
  if (f.end) q.set('end', f.end);
  if (f.project) q.set('project', f.project);
  if (f.activity) q.set('activity', f.activity);
  if (f.user.toLowerCase() !== me.toLowerCase()) q.set('user', f.user);
  if (f.deleted) q.set('deleted', '1');
  if (f.page > 1) q.set('page', String(f.page));
  const qs = q.toString();
  return `/entries${qs ? `?${qs}` : ''}`;
}

/** The API query of the filters, without paging. */
export function timesQuery(f: EntryFilters): TimesQuery {
  return {
    ...(f.user !== EVERYONE ? { user: [f.user] } : {}),
    ...(f.project ? { project: [f.project] } : {}),
    ...(f.activity ? { activity: [f.activity] } : {}),
    ...(f.start ? { start: f.start } : {}),
    ...(f.end ? { end: f.end } : {}),
    ...(f.deleted ? { include_deleted: 'true' as const } : {}),
  };
}

/**
 * Page `page` counted from the most recently changed entry: the API lists in order of
 * last change, oldest first, so page 1 is the list's tail (`skip` from the total).
 */
export function pageWindow(total: number, page: number): { skip: number; limit: number } {
  const end = Math.max(0, total - (page - 1) * PAGE_SIZE);
  const skip = Math.max(0, end - PAGE_SIZE);
  return { skip, limit: end - skip };
}
