// Mounts the app: the session (session.ts), the router (router.ts), the header with the
// timer, the pages. Signed out: the sign-in page. A session the server ended (expired
// or revoked token): the sign-in dialog over the page, which stays as it was, and what
// was being saved is sent once the same user signs in again (api.ts). A server that
// cannot be reached: a banner with Retry (connection.ts). A new tab takes the session of
// a signed-in one, and a session in use is renewed (session.ts, auth/keepalive.ts).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, onPartsChange, type Project, type User } from './api';
import { approvesAnything, mayDecide } from './approvals/rules';
import { keepSessionAlive } from './auth/keepalive';
import { SignIn } from './auth/SignIn';
import { Sso } from './auth/Sso';
import { type Catalog, useCatalog } from './base/catalog';
import { Dialog } from './base/Dialog';
import { lazyPage } from './base/lazy';
import { managedProjects } from './base/roles';
import { onConnectionChange, retryNow } from './connection';
import { Entries } from './entries/Entries';
import { onLinkClick, useLocation } from './router';
import { currentSession, handedOver, onSessionChange, type Session } from './session';
import { Timer } from './timer/Timer';
import { Home } from './timesheet/Home';
import { landsOnTeamWeek } from './timesheet/team';
import './app.css';

const Reports = lazyPage(() => import('./reports/Reports').then((m) => m.Reports));
const Profile = lazyPage(() => import('./profile/Profile').then((m) => m.Profile));
const Projects = lazyPage(() => import('./projects/Projects').then((m) => m.Projects));
const ProjectPage = lazyPage(() => import('./projects/ProjectPage').then((m) => m.ProjectPage));

const Users = lazyPage(() => import('./users/Users').then((m) => m.Users));
const UserPage = lazyPage(() => import('./users/UserPage').then((m) => m.UserPage));
const NamedList = lazyPage(() => import('./admin/NamedList').then((m) => m.NamedList));
const Import = lazyPage(() => import('./import/Import').then((m) => m.Import));
const Approvals = lazyPage(() => import('./approvals/Approvals').then((m) => m.Approvals));
const TeamWeek = lazyPage(() => import('./timesheet/TeamWeek').then((m) => m.TeamWeek));

/** The header's pages; `shown` leaves out what the user cannot use (the URL still works). */
const PAGES: { path: string; name: string; shown?: (me: User, projects: Project[]) => boolean }[] =
  [
    { path: '/', name: 'Timesheet' },
    { path: '/entries', name: 'Entries' },
    // The hours logged on the projects one manages (issue 34).
    {
      path: '/team',
      name: 'Team week',
      shown: (me, projects) => managedProjects(projects, me.username).length > 0,
    },
    { path: '/reports', name: 'Reports' },
    { path: '/approvals', name: 'Approvals', shown: approvesAnything },
    { path: '/projects', name: 'Projects' },
    {
      path: '/people',
      name: 'People',
      shown: (me) => me.site_admin || me.site_manager || me.site_spectator,
    },
    { path: '/activities', name: 'Activities', shown: (me) => me.site_admin || me.site_manager },
    { path: '/roles', name: 'Roles', shown: (me) => me.site_admin || me.site_manager },
    // Anyone may import their own entries at /import; the header offers it to those who
    // import for everyone.
    { path: '/import', name: 'Import', shown: (me) => me.site_admin || me.site_manager },
    { path: '/profile', name: 'Profile' },
  ];

/**
 * A manager who is a member of no project has no timesheet (/ takes them to /team):
 * the header leaves it out once the catalog says so.
 */
const noTimesheet = (path: string, catalog: Catalog | undefined) =>
  path === '/' && !!catalog && landsOnTeamWeek(catalog.projects, catalog.me.username);

/** How many week parts wait for this user's decision (the navigation shows it). */
function usePendingCount(catalog: Catalog | undefined): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!catalog || !approvesAnything(catalog.me, catalog.projects)) return;
    let live = true;
    const load = () =>
      api.approvals({ status: 'submitted' }).then(
        (parts) =>
          live && setCount(parts.filter((p) => mayDecide(catalog.me, catalog.projects, p)).length),
        () => {},
      );
    void load();
    const stop = onPartsChange(() => void load());
    return () => {
      live = false;
      stop();
    };
  }, [catalog]);
  return count;
}

function Header(props: { session: Session; path: string }) {
  const { catalog } = useCatalog(props.session.username);
  const pending = usePendingCount(catalog);
  return (
    <header class="top">
      <a href="/" class="brand" onClick={onLinkClick}>
        timetrack
      </a>
      <nav aria-label="Main">
        {PAGES.filter((p) => !p.shown || (catalog && p.shown(catalog.me, catalog.projects)))
          .filter((p) => !noTimesheet(p.path, catalog))
          .map((p) => (
            <a
              key={p.path}
              href={p.path}
              onClick={onLinkClick}
              aria-current={
                props.path === p.path || (p.path !== '/' && props.path.startsWith(`${p.path}/`))
                  ? 'page'
                  : undefined
              }
            >
              {p.name}
              {p.path === '/approvals' && pending > 0 && (
                <span class="count">
                  {' '}
                  {pending}
                  <span class="visually-hidden"> waiting</span>
                </span>
              )}
            </a>
          ))}
      </nav>
      <Timer catalog={catalog} />
      <span class="user">{props.session.username}</span>
      <button type="button" onClick={() => api.signOut()}>
        Sign out
      </button>
    </header>
  );
}

function ConnectionBanner() {
  const [lost, setLost] = useState(false);
  useEffect(() => onConnectionChange(setLost), []);
  if (!lost) return null;
  return (
    <div class="banner" role="alert">
      <span>
        The server cannot be reached. Nothing is lost: what you changed is sent when it is back.
      </span>
      <button type="button" class="primary" onClick={retryNow}>
        Retry
      </button>
    </div>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <a href="/" onClick={onLinkClick}>
          Go to the timesheet
        </a>
      </p>
    </section>
  );
}

function Page(props: { session: Session; path: string; query: URLSearchParams }) {
  const { username } = props.session;
  switch (props.path) {
    case '/':
      return <Home username={username} query={props.query} />;
    case '/team':
      return <TeamWeek username={username} query={props.query} />;
    case '/entries':
      return <Entries username={username} query={props.query} />;
    case '/reports':
      return <Reports username={username} query={props.query} />;
    case '/profile':
      return <Profile username={username} />;
    case '/approvals':
      return <Approvals username={username} query={props.query} />;
    case '/projects':
      return <Projects username={username} query={props.query} />;
    case '/people':
      return <Users username={username} />;
    case '/import':
      return <Import username={username} />;
    case '/activities':
      return (
        <NamedList
          username={username}
          query={props.query}
          kind="activities"
          title="Activities"
          one="activity"
        />
      );
    case '/roles':
      return (
        <NamedList
          username={username}
          query={props.query}
          kind="roles"
          title="Organization roles"
          one="role"
        />
      );
    default: {
      const [, page, id] = /^\/(projects|people)\/([^/]+)$/.exec(props.path) ?? [];
      if (page === 'projects')
        return <ProjectPage username={username} slug={decodeURIComponent(id ?? '')} />;
      if (page === 'people')
        return <UserPage username={username} who={decodeURIComponent(id ?? '')} />;
      return <NotFound />;
    }
  }
}

function App() {
  const [session, setSession] = useState<Session | undefined>(currentSession);
  const [expired, setExpired] = useState<string | undefined>();
  const loc = useLocation();
  useEffect(
    () =>
      onSessionChange((next, wasExpired) => {
        if (wasExpired) {
          setExpired(session?.username ?? '');
          return;
        }
        setExpired(undefined);
        setSession(next);
      }),
    [session],
  );

  // Where a single sign-on comes back, signed in or not (auth/Sso.tsx).
  if (loc.path === '/sso') {
    return (
      <>
        <ConnectionBanner />
        <main class="center">
          <Sso />
        </main>
      </>
    );
  }
  if (!session) {
    return (
      <>
        <ConnectionBanner />
        <main class="center">
          <SignIn />
        </main>
      </>
    );
  }
  // Pages are keyed by the user, not the token: signing in again after an expired
  // session keeps them (and what was typed) as they were.
  return (
    <>
      <Header session={session} path={loc.path} />
      <ConnectionBanner />
      <main>
        <Page key={session.username} session={session} path={loc.path} query={loc.query} />
      </main>
      <Dialog open={expired !== undefined} label="Session expired">
        <SignIn heading="Your session has ended: sign in again" username={expired} />
      </Dialog>
    </>
  );
}

const root = document.getElementById('app');
keepSessionAlive();
// A tab opened while signed in elsewhere gets that session first (session.ts).
if (root) void handedOver.then(() => render(<App />, root));
