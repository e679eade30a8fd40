// The working day's load generator, a child process of its own (bench/day-load.ts forks
// it) so that it never shares a thread with the runner or the server. Gets the plan over
// IPC, plays it (bench/day-play.ts) and answers with what it saw.
import { type DayRequest, play } from './day-play';

export type { DayRequest, DayResult } from './day-play';

process.once('message', async (req: DayRequest) => {
  try {
    const result = await play(req);
    process.send?.({ ok: true, result }, undefined, {}, () => process.exit(0));
  } catch (err) {
    process.send?.({ ok: false, error: String(err) }, undefined, {}, () => process.exit(1));
  }
});
