// The generated database, cached under bench/data/ by everything that shapes it: size,
// seed, generator version and the text of the schema and the generator.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATOR_VERSION, generateDataset, type Sidecar, sidecarPath } from './generate';
import { ROOT } from './target';

export const DATA_DIR = join(ROOT, 'bench/data');

function fingerprint(): string {
  const hash = createHash('sha256').update(String(GENERATOR_VERSION));
  const sqlDir = join(ROOT, 'sql');
  for (const f of readdirSync(sqlDir).sort()) hash.update(readFileSync(join(sqlDir, f)));
  hash.update(readFileSync(join(ROOT, 'bench/generate.ts')));
  return hash.digest('hex').slice(0, 10);
}

/** The cached database for this size and seed, generated first if missing. */
export function ensureDataset(times: number, seed: number, say: (line: string) => void) {
  mkdirSync(DATA_DIR, { recursive: true });
  const file = join(DATA_DIR, `timetrack-${times}-s${seed}-${fingerprint()}.db`);
  if (existsSync(file) && existsSync(sidecarPath(file))) {
    say(`data set: ${file} (cached)`);
  } else {
    say(`data set: generating ${times} time entries into ${file} ...`);
    const s = generateDataset({ file, times, seed });
    say(`data set: generated in ${s.seconds} s`);
  }
  const sidecar = JSON.parse(readFileSync(sidecarPath(file), 'utf8')) as Sidecar;
  return { file, sidecar };
}
