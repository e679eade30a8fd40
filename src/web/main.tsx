// Mounts the app: the session (api.ts), the router (router.ts), the header, the pages.
// Signed out: the sign-in page. A session the server ended (expired token): the sign-in
// dialog over the page, which stays as it was.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, currentSession, onSessionChange, type Session } from './api';
import { SignIn } from './auth/SignIn';
import { Dialog } from './base/Dialog';
import { onLinkClick, useLocation } from './router';
import { Timesheet } from './timesheet/Timesheet';
import './app.css';

function Header(props: { session: Session; path: string }) {
  return (
    <header class="top">
      <a href="/" class="brand" onClick={onLinkClick}>
        timetrack
      </a>
      <nav aria-label="Main">
        <a href="/" onClick={onLinkClick} aria-current={props.path === '/' ? 'page' : undefined}>
          Timesheet
        </a>
      </nav>
      <span class="user">{props.session.username}</span>
      <button type="button" onClick={() => api.signOut()}>
        Sign out
      </button>
    </header>
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

function App() {
  const [session, setSession] = useState<Session | undefined>(currentSession);
  const [expired, setExpired] = useState<Session | undefined>();
  const loc = useLocation();
  useEffect(
    () =>
      onSessionChange((next, wasExpired) => {
        if (next) {
          setSession(next);
          setExpired(undefined);
        } else if (wasExpired) {
          setExpired(session ?? currentSession());
        } else {
          setSession(undefined);
          setExpired(undefined);
        }
      }),
    [session],
  );

  if (!session) {
    return (
      <main class="center">
        <SignIn />
      </main>
    );
  }
  return (
    <>
      <Header session={session} path={loc.path} />
      <main>
        {loc.path === '/' ? (
          <Timesheet key={session.token} username={session.username} query={loc.query} />
        ) : (
          <NotFound />
        )}
      </main>
      <Dialog open={expired !== undefined} label="Session expired">
        <SignIn heading="Your session has ended: sign in again" username={expired?.username} />
      </Dialog>
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
