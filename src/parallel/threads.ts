/**
 * The part of the threads setting that every bundle carries: the setting's check and the load of the worker pool
 * (./workerPool.ts) through a dynamic `import()`.
 * Nothing else of src/parallel/ is in the library's bundle: with `threads: 1` (the default) the pool is never
 * loaded; with more, the build resolves that import to dist/continuum.pool.mjs (rollup.config.mjs), a module of
 * its own, fetched in the background while the world already steps on one thread (the step uses the pool once
 * it is made and its workers listen; the result is the same either way).
 */
import { MAX_THREADS } from "./limits";
import type { WorkerPool } from "./workerPool";

/**
 * Where a world keeps its threads (its step scratch, src/world/stepScratch.ts): the count asked for, the pool once
 * it is made, and the message of a pool that did not load. An interface here, so this module needs nothing above it.
 */
export interface ThreadsHost {
  threadsWanted: number;
  pool: WorkerPool | null;
  threadsMessage: string | null;
}

/** Throws a RangeError naming settings.threads unless it is an integer in 1..{@link MAX_THREADS}. */
export function checkThreads(threads: number): void {
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    throw new RangeError(`settings.threads must be an integer in 1..${MAX_THREADS}, got ${String(threads)}`);
  }
}

/**
 * Starts `threads` (> 1) threads for the world whose scratch is `scratch`: loads the pool's module and sets
 * `scratch.pool` (unless {@link stopThreads} came first). Where SharedArrayBuffer is missing the pool runs on one
 * thread and says why (./workerPool.ts); where the module does not load, `scratch.threadsMessage` says so.
 */
export function startThreads(scratch: ThreadsHost, threads: number, workerUrl: string | URL | undefined): void {
  scratch.threadsWanted = threads;
  import("./workerPool").then(
    (m) => {
      if (scratch.threadsWanted > 1) scratch.pool = new m.WorkerPool({ threads, workerUrl });
    },
    (e: unknown) => {
      console.warn((scratch.threadsMessage = `Continuum: the worker pool did not load (${String(e)}); one thread.`));
    },
  );
}

/** Stops the world's workers, or keeps them from starting if the pool is still loading; one thread from now on. */
export function stopThreads(scratch: ThreadsHost): void {
  scratch.threadsWanted = 1;
  if (scratch.pool !== null) scratch.pool.stop();
}
