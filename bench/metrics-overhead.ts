// The cost of --metrics (issue 18): the single-entry GET against the measured server
// (metrics off) and a second server on the same database with TIMETRACK_METRICS=true,
// taking turns in the same run so both see the same machine. Prometheus scrapes the
// second one every second meanwhile, as it would in production.
import { type LoadRequest, type LoadResult, type RawLoad, runRawLoad, summarize } from './load';
import type { Target } from './target';

export interface MetricsOverhead {
  off: LoadResult;
  on: LoadResult;
  /** Scrapes of /metrics during the measured time, and the size of the last one. */
  scrapes: number;
  scrapeBytes: number;
}

export async function measureMetricsOverhead(options: {
  off: Target;
  on: Target;
  requests: LoadRequest[];
  connections: number;
  warmupSeconds: number;
  seconds: number;
  rounds: number;
}): Promise<MetricsOverhead> {
  const off: RawLoad[] = [];
  const on: RawLoad[] = [];
  let scrapes = 0;
  let scrapeBytes = 0;
  const scraper = setInterval(async () => {
    const res = await fetch(`${options.on.url}/metrics`).catch(() => undefined);
    if (res?.status !== 200) return;
    scrapeBytes = (await res.text()).length;
    scrapes++;
  }, 1000);
  try {
    for (let round = 0; round < options.rounds; round++) {
      const spec = {
        method: 'GET' as const,
        requests: options.requests,
        connections: options.connections,
        warmupSeconds: round === 0 ? options.warmupSeconds : 0,
        seconds: options.seconds / options.rounds,
      };
      off.push(await runRawLoad({ ...spec, url: options.off.url }));
      on.push(await runRawLoad({ ...spec, url: options.on.url }));
    }
  } finally {
    clearInterval(scraper);
  }
  return { off: summarize(off), on: summarize(on), scrapes, scrapeBytes };
}

/** One line for the table's printout and the report. */
export function metricsOverheadLine(m: MetricsOverhead): string {
  const change = (m.on.rps / m.off.rps - 1) * 100;
  return `metrics (GET /v0/times/:uuid, same run): off ${m.off.rps.toFixed(0)} req/s p50 ${m.off.p50.toFixed(2)} ms p99 ${m.off.p99.toFixed(2)} ms; on ${m.on.rps.toFixed(0)} req/s p50 ${m.on.p50.toFixed(2)} ms p99 ${m.on.p99.toFixed(2)} ms (${change >= 0 ? '+' : ''}${change.toFixed(1)} % req/s; ${m.scrapes} scrapes of ${m.scrapeBytes} bytes meanwhile)`;
}
