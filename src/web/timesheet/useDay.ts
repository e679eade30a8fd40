// The phone's day view (issue 34): whether the screen is narrow enough for it, and which
// day of the week it shows. The day lives in the URL beside the week (?week=…&day=…),
// so a reload or a bookmark keeps it; without one the view opens on today when the
// week holds today, else on the week's Monday.
import { useEffect, useState } from 'preact/hooks';
import { daysOfWeek, formatWeek, type IsoWeek, isoWeekOf, today } from '../base/dates';

/** Below 600 px the timesheet is one day at a time (the same width as app.css's phone rules). */
const NARROW = '(max-width: 600px)';

/** Whether the screen is a phone's (follows a rotation or a resized window). */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches);
  useEffect(() => {
    const media = matchMedia(NARROW);
    const update = () => setNarrow(media.matches);
    media.addEventListener('change', update);
    update();
    return () => media.removeEventListener('change', update);
  }, []);
  return narrow;
}

/** The day shown of `days` (a week, Monday first): the URL's, today, or Monday. */
export function dayShown(days: string[], query: URLSearchParams): string {
  const asked = query.get('day');
  if (asked && days.includes(asked)) return asked;
  const now = today();
  return days.includes(now) ? now : (days[0] as string);
}

/** The timesheet's URL showing `date` (its week, and the day for the day view). */
export function dayUrl(date: string): string {
  return `/?week=${formatWeek(isoWeekOf(date))}&day=${date}`;
}

/**
 * The URL of another week: on the day view (`day` given) the same weekday of that week,
 * so Previous and Next week keep the weekday; else the week alone, as before.
 */
export function weekUrl(week: IsoWeek, day: string | undefined, days: string[]): string {
  const index = day ? days.indexOf(day) : -1;
  if (index < 0) return `/?week=${formatWeek(week)}`;
  return dayUrl(daysOfWeek(week)[index] as string);
}
