// CPU time of another process, read from /proc (Linux): user + system, in seconds.
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux that Node runs on

export function cpuSeconds(pid: number): number | undefined {
  try {
    // The command name (field 2) may hold spaces: count fields after its ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined; // not Linux, or the process is gone
  }
}
