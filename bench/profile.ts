// Where the server's main thread spends its time, from the V8 CPU profile that
// `npm run bench -- --profile` has the server write (node --cpu-prof): self time grouped
// into SQLite, JSON, HTTP/streams, garbage collection, idle and the rest of our JS.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Share of busy (non-idle) time per category, largest first. */
  categories: { name: string; ms: number; share: number }[];
  /** Functions with the most self time. */
  top: { name: string; ms: number; share: number }[];
}

const SQLITE_NATIVE = new Set(['get', 'all', 'run', 'iterate', 'exec', 'prepare', 'pluck', 'raw']);

function category(f: ProfileNode['callFrame']): string {
  const name = f.functionName;
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)') return 'V8/native (program)';
  if (f.url.includes('better-sqlite3') || (f.url === '' && SQLITE_NATIVE.has(name)))
    return 'SQLite (statements)';
  if (name === 'stringify' || name === 'parse') return 'JSON';
  if (/^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net))/.test(f.url))
    return 'node:http / net / streams';
  if (f.url.startsWith('node:')) return 'other node: internals';
  if (f.url === '') return 'other native';
  return 'timetrack JS (with the SQLite steps and JSON it calls)';
}

/** Summarises the main thread's profile (worker threads — bcrypt — are left out). */
export function summarizeProfiles(dir: string): ProfileSummary | undefined {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    return undefined;
  }
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread.
  const main = files.find((f) => f.split('.')[4] === '0') ?? files[0];
  if (!main) return undefined;
  const p = JSON.parse(readFileSync(join(dir, main), 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (const [i, id] of p.samples.entries()) {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const cats = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const c = category(node.callFrame);
    total += us;
    if (c === 'idle') {
      idle += us;
      continue;
    }
    cats.set(c, (cats.get(c) ?? 0) + us);
    const f = node.callFrame;
    const fn = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const busy = Math.max(1, total - idle);
  const rank = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / busy }));
  return {
    file: join(dir, main),
    totalMs: total / 1000,
    categories: rank(cats, 10),
    top: rank(fns, 12),
  };
}
