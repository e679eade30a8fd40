// The load generator, run in a child process of its own (bench/load.ts forks it) so it
// never shares a CPU thread with the runner or the server. Gets one LoadSpec over IPC,
// runs autocannon (warm-up, then the measured run), says when the measured run begins and
// answers with every latency.
// Latencies are taken from every response at full resolution (autocannon's own
// histogram rounds to whole milliseconds).
import autocannon from 'autocannon';
import type { LoadSpec, RawLoad } from './load';
import { createRng } from './prng';

function run(spec: LoadSpec, seconds: number, record: boolean): Promise<RawLoad> {
  const rng = createRng(spec.seed ?? 1);
  const latencies: number[] = [];
  let errors = 0;
  const instance = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      duration: seconds,
      timeout: 30,
      requests: [
        {
          method: spec.method,
          headers: spec.method === 'POST' ? { 'content-type': 'application/json' } : {},
          setupRequest: (req: any) => {
            const r = rng.pick(spec.requests);
            return { ...req, path: r.path, body: r.body };
          },
        },
      ],
    },
    () => {},
  );
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status < 200 || status >= 300) errors++;
    if (record) latencies.push(ms);
  });
  return new Promise((resolve, reject) => {
    instance.on('done', (result: any) => {
      resolve({
        latencies,
        seconds: result.duration as number,
        errors: errors + (result.errors as number) + (result.timeouts as number),
        statusCodes: Object.fromEntries(
          Object.entries(result.statusCodeStats as Record<string, { count: number }>).map(
            ([k, v]) => [k, v.count],
          ),
        ),
      });
    });
    instance.on('error', reject);
  });
}

process.once('message', async (spec: LoadSpec) => {
  try {
    if (spec.warmupSeconds > 0) await run(spec, spec.warmupSeconds, false);
    process.send?.({ measuring: true });
    const result = await run(spec, spec.seconds, true);
    process.send?.({ ok: true, result }, undefined, {}, () => process.exit(0));
  } catch (err) {
    process.send?.({ ok: false, error: String(err) }, undefined, {}, () => process.exit(1));
  }
});
