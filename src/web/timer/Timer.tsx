// The timer in the header, on every page: start (on a project/activity with a note),
// the running time (also in the document title), stop (the server makes the entry) and
// discard. It lives on the server (/v0/timer), so a reload or another device shows the
// same timer: it is read again when the page comes back into view and every 30 s.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorText, type Timer as RunningTimer } from '../api';
import type { Catalog } from '../base/catalog';
import { Confirm, Dialog } from '../base/Dialog';
import { formatDuration } from '../base/duration';
import { projectOf } from '../base/roles';
import { formatClock, startedAtLocal } from './clock';
import { onTimerChange, timerChanged } from './running';
import { StartTimer } from './StartTimer';

const SYNC_MS = 30_000;
const TITLE = 'timetrack';

export function Timer(props: { catalog: Catalog | undefined }) {
  const [timer, setTimer] = useState<{ timer: RunningTimer; since: number } | null>();
  const [now, setNow] = useState(Date.now());
  const [starting, setStarting] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>();
  // A stop refused as under one rounding step (409 Timer too short): its text, while
  // Discard is offered instead of booking 0:00.
  const [tooShort, setTooShort] = useState<string | undefined>();

  // Whoever starts or stops the timer (here, or a timesheet row's Start) tells running.ts.
  useEffect(
    () => onTimerChange((t) => setTimer(t ? { timer: t, since: startedAtLocal(t.elapsed) } : null)),
    [],
  );
  const show = timerChanged;

  const sync = () => api.timer().then(show, (err) => setError(errorText(err)));

  useEffect(() => {
    void sync();
    const onVisible = () => document.visibilityState === 'visible' && void sync();
    document.addEventListener('visibilitychange', onVisible);
    const every = setInterval(onVisible, SYNC_MS);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      clearInterval(every);
    };
  }, []);

  const running = timer?.timer;
  const project =
    running && props.catalog ? projectOf(props.catalog.projects, running.project) : undefined;
  const projectName = project?.name ?? running?.project[0] ?? '';
  const seconds = timer ? (now - timer.since) / 1000 : 0;

  useEffect(() => {
    if (!timer) {
      document.title = TITLE;
      return;
    }
    const tick = setInterval(() => setNow(Date.now()), 1000);
    setNow(Date.now());
    return () => clearInterval(tick);
  }, [timer]);
  useEffect(() => {
    if (running) document.title = `${formatClock(seconds)} · ${projectName} — ${TITLE}`;
  });

  const stop = async () => {
    setError(undefined);
    try {
      const time = await api.stopTimer();
      show(null);
      // Added to the one entry of its row and day (add_to_entry): that entry's new total.
      setMessage(
        time.revision > 1
          ? `Added to ${projectName}, ${time.date_worked}: now ${formatDuration(time.duration)}`
          : `Booked ${formatDuration(time.duration)} on ${projectName}, ${time.date_worked}`,
      );
    } catch (err) {
      if (err instanceof ApiError && err.error === 'Timer too short') {
        setTooShort(err.text);
        setDiscarding(true);
        return;
      }
      setError(errorText(err));
      if (err instanceof ApiError && err.status === 404) show(null);
    }
  };
  const discard = async (yes: boolean) => {
    setDiscarding(false);
    setTooShort(undefined);
    if (!yes) return;
    setError(undefined);
    try {
      await api.discardTimer();
      show(null);
      setMessage('Timer discarded');
    } catch (err) {
      setError(errorText(err));
      if (err instanceof ApiError && err.status === 404) show(null);
    }
  };

  return (
    <section class="timer" aria-label="Timer">
      {running ? (
        <>
          <span class="running">
            <span class="dot" aria-hidden="true" />
            <span class="visually-hidden">Running for</span>
            <span class="clock">{formatClock(seconds)}</span>{' '}
            <span class="what">
              {projectName}
              {running.notes ? ` · ${running.notes}` : ''}
            </span>
          </span>
          <button type="button" class="primary" onClick={stop}>
            Stop timer
          </button>
          <button type="button" onClick={() => setDiscarding(true)}>
            Discard
          </button>
        </>
      ) : (
        <button
          type="button"
          disabled={timer === undefined || !props.catalog}
          onClick={() => {
            setMessage('');
            setStarting(true);
          }}
        >
          Start timer
        </button>
      )}
      <span class="timer-status" role="status">
        {message}
      </span>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
      <Dialog
        open={starting && !!props.catalog}
        label="Start the timer"
        panel
        onCancel={() => setStarting(false)}
      >
        {props.catalog && (
          <>
            <h2>Start the timer</h2>
            <StartTimer
              catalog={props.catalog}
              onStarted={(t) => {
                setStarting(false);
                setError(undefined);
                show(t);
              }}
              onCancel={() => setStarting(false)}
            />
          </>
        )}
      </Dialog>
      <Confirm
        open={discarding}
        label="Discard the timer?"
        text={
          tooShort
            ? `${tooShort}. Discard it, or keep it running and stop it later?`
            : `${formatClock(seconds)} on ${projectName} will not be booked.`
        }
        yes="Discard"
        no="Keep it running"
        onAnswer={discard}
      />
    </section>
  );
}
