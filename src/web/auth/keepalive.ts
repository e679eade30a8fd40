// Sessions that last while used (issue 34): a person who keeps using the app is never
// asked to sign in again, while an idle session still ends. Once half of the token's
// lifetime has passed, it is renewed (POST /v0/login/renew) if the person did something
// (a key, a click, a touch) since the token came — at once if they are busy then, else at
// their next action. A token that reaches its end unrenewed ends the session here: the
// sign-in dialog shows, over the page as it was (main.tsx). The deadlines are counted on
// this tab's clock from when the token came (session.ts), and a renewal is handed to
// every tab, so one busy tab keeps the others signed in.
import { api } from '../api';
import { currentSession, onSessionChange, type Session, setSession } from '../session';

const ACTIVITY = ['keydown', 'pointerdown', 'input', 'touchstart'] as const;

let since = 0; // when the current token came, on this tab's clock
let lastActive = 0;
let renewing = false;
let halfway: ReturnType<typeof setTimeout> | undefined;
let end: ReturnType<typeof setTimeout> | undefined;

const busySince = () => lastActive >= since;

function halfOf(s: Session): number {
  return s.deadline - s.lifetime / 2;
}

async function renew(): Promise<void> {
  const s = currentSession();
  if (!s || renewing) return;
  renewing = true;
  try {
    const next = await api.renew(s);
    if (currentSession() !== s) return; // signed out, or another tab renewed meanwhile
    if (next === 'refused') setSession(undefined, true);
    else if (next) setSession(next);
  } finally {
    renewing = false;
  }
}

function watch(s: Session | undefined): void {
  clearTimeout(halfway);
  clearTimeout(end);
  if (!s) return;
  since = Date.now();
  const now = Date.now();
  halfway = setTimeout(
    () => {
      if (busySince()) void renew();
    },
    Math.max(0, halfOf(s) - now),
  );
  end = setTimeout(
    () => {
      if (currentSession() === s) setSession(undefined, true);
    },
    Math.max(0, s.deadline - now),
  );
}

function onActivity(): void {
  lastActive = Date.now();
  const s = currentSession();
  if (s && Date.now() >= halfOf(s)) void renew();
}

/** Starts keeping the session alive while the page is used (main.tsx, once). */
export function keepSessionAlive(): void {
  for (const type of ACTIVITY) {
    addEventListener(type, onActivity, { capture: true, passive: true });
  }
  onSessionChange((s) => watch(s));
  watch(currentSession());
}
