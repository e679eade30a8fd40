// bcrypt off the event loop: a small pool of worker threads (SPEC §9: logins must not
// stall other requests). Stored hashes are bcrypt with cost 10 and prefix $2a$, as the
// TimeSync clients produce them.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { bcryptWorkerSource } from '../embedded';
import type { BcryptTask } from './bcrypt-worker';

/** A bcrypt hash as bcrypt itself reads it: prefix, cost 04-31, salt and digest. */
export const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

/**
 * The highest cost a stored hash may have (SPEC §2.4). Each step doubles the work: one
 * cost-31 comparison is ~40 h of CPU, so a user who could store one would tie up a
 * bcrypt worker per login attempt. Higher costs are refused on input and never compared.
 */
export const MAX_BCRYPT_COST = 14;

/** The cost of a hash of BCRYPT_HASH's shape. */
export const bcryptCost = (hash: string): number => Number(hash.slice(4, 6));

/** A hash we store and compare at login: bcrypt's shape and a cost of 04-14. */
export const isAcceptedHash = (hash: string): boolean =>
  BCRYPT_HASH.test(hash) && bcryptCost(hash) <= MAX_BCRYPT_COST;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
  close(): Promise<void>;
}

type Pending = { resolve: (v: string | boolean) => void; reject: (e: Error) => void };

export function createPasswordHasher(size = Math.max(1, availableParallelism())): PasswordHasher {
  const workers: Worker[] = [];
  const idle: Worker[] = [];
  const queue: BcryptTask[] = [];
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let source: string | undefined;

  const spawn = (): Worker => {
    source ??= bcryptWorkerSource();
    const worker = new Worker(source, { eval: true });
    worker.on('message', (msg: { id: number; result?: string | boolean; error?: string }) => {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error !== undefined) p?.reject(new Error(msg.error));
      else p?.resolve(msg.result as string | boolean);
      dispatch(worker);
    });
    worker.on('error', (err) => {
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    });
    workers.push(worker);
    return worker;
  };

  const dispatch = (worker: Worker) => {
    const task = queue.shift();
    if (task) worker.postMessage(task);
    else idle.push(worker);
  };

  const run = (task: Omit<BcryptTask, 'id'>) =>
    new Promise<string | boolean>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      queue.push({ ...task, id });
      const worker = idle.pop() ?? (workers.length < size ? spawn() : undefined);
      if (worker) dispatch(worker);
    });

  return {
    hash: async (password) => (await run({ op: 'hash', password, cost: 10 })) as string,
    compare: async (password, hash) => (await run({ op: 'compare', password, hash })) as boolean,
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
      workers.length = 0;
      idle.length = 0;
    },
  };
}

/** Hashing `password` here needs ~70 ms of CPU; precomputed so unknown users cost the same. */
export const DUMMY_HASH = '$2a$10$GkktCMvA5XVqBci5nW.Xc.jEWS.YEqO2UOPP2INFMs1xPXi.DAHlG';
