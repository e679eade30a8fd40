// What every page looks names up in: the projects, the activities and the signed-in
// user (flags, for what to offer). Loaded once per session and shared, so the header's
// timer, the timesheet and the entries page make one request each, not three.
import { useEffect, useState } from 'preact/hooks';
import { type Activity, api, errorText, type Project, type User } from '../api';
import { onSessionChange } from '../session';
import { sameUser } from './roles';

export interface Catalog {
  projects: Project[];
  activities: Activity[];
  me: User;
}

let loading: { username: string; promise: Promise<Catalog> } | undefined;

onSessionChange((next) => {
  if (!next || next.username !== loading?.username) loading = undefined;
});

function load(username: string): Promise<Catalog> {
  if (loading?.username !== username) {
    const promise = Promise.all([api.projects(), api.activities(), api.user(username)]).then(
      ([projects, activities, me]) => ({ projects, activities, me }),
    );
    promise.catch(() => {
      if (loading?.promise === promise) loading = undefined;
    });
    loading = { username, promise };
  }
  return loading.promise;
}

const reloaded = new Set<() => void>();

/** Loads the catalog again (a project was made, the profile changed the user). */
export function reloadCatalog(): void {
  loading = undefined;
  for (const l of reloaded) l();
}

/** The catalog of `username`'s session; undefined while loading. */
export function useCatalog(username: string): { catalog?: Catalog; error?: string } {
  const [state, setState] = useState<{ catalog?: Catalog; error?: string }>({});
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    reloaded.add(bump);
    return () => {
      reloaded.delete(bump);
    };
  }, []);
  useEffect(() => {
    let live = true;
    load(username).then(
      (catalog) => live && setState({ catalog }),
      (err) => live && setState({ error: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [username, version]);
  return state;
}

export function activityName(activities: Activity[], slug: string): string {
  return activities.find((a) => a.slug === slug)?.name ?? slug;
}

/** What the signed-in user may do with a time (SPEC §3), to offer only that. */
export function mayEdit(me: User, owner: string): boolean {
  return me.site_admin || sameUser(me.username, owner);
}
export function mayDelete(me: User, owner: string): boolean {
  return me.site_admin || me.site_manager || sameUser(me.username, owner);
}
