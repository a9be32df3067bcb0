/**
 * Where the worker script is by default: dist/continuum.worker.mjs beside this module. A module of its own
 * (built to dist/continuum.worker-url.mjs, loaded by the pool only when `workerUrl` is not given) so that a
 * bundler's `import.meta.url` handling (Vite's, webpack's) runs on these few lines and emits the worker, instead of
 * parsing the whole library for it.
 */

/** The default worker script's URL (Node). */
export function defaultWorkerUrl(): URL {
  return new URL("./continuum.worker.mjs", import.meta.url);
}

/** A module Web Worker of the default script, written in the form bundlers recognise and rewrite (browsers). */
export function startDefaultWorker(): Worker {
  return new Worker(new URL("./continuum.worker.mjs", import.meta.url), { type: "module" });
}
