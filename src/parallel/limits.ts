/** Most threads a world may ask for (the setting's check, threads.ts, and the pool's, workerPool.ts). */
export const MAX_THREADS = 64;
