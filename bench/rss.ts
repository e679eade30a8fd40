// Memory of another process, read from /proc (Linux): current RSS and its peak (VmHWM).
import { readFileSync } from 'node:fs';

export interface Memory {
  rssMb: number;
  hwmMb: number;
}

export function readMemory(pid: number): Memory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined; // not Linux, or the process is gone
  }
}

/** Samples RSS every `everyMs` until stopped (pausable); reports the largest RSS seen. */
export function sampleRss(pid: number, everyMs = 50) {
  let peak = readMemory(pid)?.rssMb ?? 0;
  const sample = () => {
    const m = readMemory(pid);
    if (m && m.rssMb > peak) peak = m.rssMb;
  };
  let timer: NodeJS.Timeout | undefined = setInterval(sample, everyMs);
  const pause = () => {
    sample();
    clearInterval(timer);
    timer = undefined;
  };
  return {
    pause,
    resume() {
      timer ??= setInterval(sample, everyMs);
    },
    stop(): number {
      pause();
      return peak;
    },
  };
}
