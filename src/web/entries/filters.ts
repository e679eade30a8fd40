// The entries page's settings, kept in the URL (a URL is a bookmark of what is shown):
// ?start=&end=&project=&activity=&user=&q=&deleted=1&order=&page=2. `user` absent means
// the signed-in user; `user=*` everyone whose entries the caller may see (SPEC §3); `q`
// searches the notes; `order` absent means newest date worked first.
import type { EntryOrder, TimesQuery } from '../api';

export const PAGE_SIZE = 50;
export const EVERYONE = '*';

export const DEFAULT_ORDER: EntryOrder = '-date_worked';
const ORDERS: readonly EntryOrder[] = ['date_worked', '-date_worked', 'duration', '-duration'];

export interface EntryFilters {
  start: string;
  end: string;
  project: string;
  activity: string;
  user: string;
  /** Text searched for in the notes ('' for none). */
  notes: string;
  deleted: boolean;
  order: EntryOrder;
  page: number;
}

export function readFilters(query: URLSearchParams, me: string): EntryFilters {
  const page = Number(query.get('page'));
  const order = query.get('order') as EntryOrder | null;
  return {
    start: query.get('start') ?? '',
    end: query.get('end') ?? '',
    project: query.get('project') ?? '',
    activity: query.get('activity') ?? '',
    user: query.get('user') ?? me,
    notes: query.get('q') ?? '',
    deleted: query.get('deleted') === '1',
    order: order && ORDERS.includes(order) ? order : DEFAULT_ORDER,
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
  if (f.notes.trim()) q.set('q', f.notes.trim());
  if (f.deleted) q.set('deleted', '1');
  if (f.order !== DEFAULT_ORDER) q.set('order', f.order);
  if (f.page > 1) q.set('page', String(f.page));
  const qs = q.toString();
  return `/entries${qs ? `?${qs}` : ''}`;
}

/** The API query of the filters, without order and paging. */
export function timesQuery(f: EntryFilters): TimesQuery {
  const notes = f.notes.trim().slice(0, 500);
  return {
    ...(f.user !== EVERYONE ? { user: [f.user] } : {}),
    ...(f.project ? { project: [f.project] } : {}),
    ...(f.activity ? { activity: [f.activity] } : {}),
    ...(f.start ? { start: f.start } : {}),
    ...(f.end ? { end: f.end } : {}),
    ...(notes ? { notes_contains: notes } : {}),
    ...(f.deleted ? { include_deleted: 'true' as const } : {}),
  };
}

/** Page `page` of the list in the order asked for. */
export function pageWindow(page: number): { skip: string; limit: string } {
  return { skip: String((page - 1) * PAGE_SIZE), limit: String(PAGE_SIZE) };
}
