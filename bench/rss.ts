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

/** Samples RSS every `everyMs` until stopped; reports the largest RSS seen. */
export function sampleRss(pid: number, everyMs = 50) {
  let peak = readMemory(pid)?.rssMb ?? 0;
  const timer = setInterval(() => {
    const m = readMemory(pid);
    if (m && m.rssMb > peak) peak = m.rssMb;
  }, everyMs);
  return {
    stop(): number {
      clearInterval(timer);
      const m = readMemory(pid);
      return Math.max(peak, m?.rssMb ?? 0);
    },
  };
}
