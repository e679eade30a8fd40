// A tiny router on location.pathname and the history API: the page's settings (the
// week shown) live in the URL's query, so a URL is a bookmark of what is on screen.
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string;
  query: URLSearchParams;
}

const current = (): Location => ({
  path: location.pathname,
  query: new URLSearchParams(location.search),
});

const listeners = new Set<() => void>();

// Forms with unsaved edits (issue 34): each guard answers whether its form has some.
// Leaving the page by the router asks first; base/unsaved.ts registers them.
const leaveGuards = new Set<() => boolean>();
const LEAVE_QUESTION = 'You have unsaved changes. Leave this page and lose them?';

/** Registers a guard; the returned function removes it. */
export function addLeaveGuard(unsaved: () => boolean): () => void {
  leaveGuards.add(unsaved);
  return () => {
    leaveGuards.delete(unsaved);
  };
}

/** Whether the page may be left: no unsaved edits, or the user says so. */
function mayLeave(): boolean {
  return ![...leaveGuards].some((unsaved) => unsaved()) || confirm(LEAVE_QUESTION);
}

/** The URL shown, to go back to when leaving by the browser's Back is refused. */
let shownUrl = location.href;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (!mayLeave()) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  shownUrl = location.href;
  for (const l of listeners) l();
}

addEventListener('popstate', () => {
  // Back or Forward has already changed the URL: refused, the page's URL is put back.
  if (!mayLeave()) {
    history.pushState(null, '', shownUrl);
    return;
  }
  shownUrl = location.href;
  for (const l of listeners) l();
});

export function useLocation(): Location {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const update = () => setLoc(current());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return loc;
}

/** A link the router follows without reloading the page (plain clicks only). */
export function onLinkClick(e: MouseEvent): void {
  const a = e.currentTarget as HTMLAnchorElement;
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href') ?? '/');
}
