/**
 * The pool's control block and its barrier: one small `Int32Array` over a `SharedArrayBuffer` that the main
 * thread and every worker read with `Atomics`. A stage is published as a job of a fixed number of blocks; any
 * thread claims the next block, runs it and counts it done; the main thread takes part and returns when every
 * block is done (Box2D v3's solver stages: blocks claimed by atomic increment, the caller working too).
 *
 * Waiting: a worker spins briefly on the job sequence number, then sleeps in `Atomics.wait` until the main thread
 * publishes the next job (`Atomics.notify`). The main thread claims blocks itself, so a job finishes even if no
 * worker ever wakes (more threads than free cores: CI runs test files side by side); it only waits for blocks a
 * worker has claimed and not finished, and it checks on the workers while it waits (the pool's `alive` test), so
 * a worker that died holding a block makes it fall back instead of waiting forever.
 */

/** Index of each word of the control block. */
export const Ctrl = {
  /** Job sequence number: incremented by the main thread for each job; workers wait on it. */
  Seq: 0,
  /** Command of the current job (see {@link Command}). */
  Command: 1,
  /** Generation of the shared arrays the job uses: a worker bound to an older one rebinds first. */
  Generation: 2,
  /** Claim word: (job sequence & {@link JOB_MASK}) << {@link BLOCK_BITS} | next unclaimed block. */
  Claim: 3,
  /** Blocks of the current job finished. */
  Done: 4,
  /** Blocks of the current job. */
  Blocks: 5,
  /** Items of the current job (bodies, pairs). */
  Items: 6,
  /** Set to (worker index + 1) by a worker whose block threw: the main thread falls back. */
  Failed: 7,
  /**
   * Workers asleep in `Atomics.wait` on {@link Ctrl.Seq} (or about to be): a job is announced with `Atomics.notify`
   * only when some are, as a notify costs about a microsecond even with nobody to wake, and a contact pass publishes
   * a job per colour.
   */
  Sleepers: 8,
  /** 1 while the main thread sleeps in `Atomics.wait` on {@link Ctrl.Done}: the last block's notify is for it. */
  MainWaits: 9,
  /** First of the per-worker words: the generation each worker is bound to (-1 none yet). */
  Bound: 10,
} as const;

/** Commands a job can carry. */
export const Command = {
  None: 0,
  /** The motion part of the prediction over blocks of the active bodies (src/dynamics/integrator.ts predictMotion). */
  PredictMotion: 1,
  /** Workers leave their loop and end. */
  Stop: 2,
  /** The shape testers of the step's pairs that need one, over blocks of jobs (./narrowBlocks.ts). */
  NarrowPhase: 3,
  /** One contact pass over one colour's manifolds, over blocks of slots (./contactBlocks.ts). */
  ContactPass: 4,
} as const;

/** Bits of the claim word that hold the block index (at most 65,536 blocks a job). */
export const BLOCK_BITS = 16;
/** Bits of the job sequence kept in the claim word: a late worker never claims a block of a job it did not see. */
export const JOB_MASK = (1 << 15) - 1;
/** A claim word no job's tag matches (bit 31 set; tags never have it): no block can be claimed. */
export const CLOSED = 1 << 31;
/** Largest block count of a job. */
export const MAX_BLOCKS = 1 << BLOCK_BITS;

/** Words of a control block for `workers` workers. */
export function controlWords(workers: number): number {
  return Ctrl.Bound + workers;
}

/** Spins (cheap loads) before a worker sleeps, and before the main thread starts yielding: a few microseconds. */
const SPIN = 2000;

/**
 * Claims the next block of the job with sequence `seq`, or returns -1 when its blocks are all claimed or the job
 * is no longer the current one. Compare-and-swap, not add: a worker that woke late must not consume a block
 * index of a later job.
 */
export function claimBlock(ctrl: Int32Array, seq: number): number {
  const tag = (seq & JOB_MASK) << BLOCK_BITS;
  for (;;) {
    const v = Atomics.load(ctrl, Ctrl.Claim);
    if ((v & ~(MAX_BLOCKS - 1)) !== tag) return -1;
    const k = v & (MAX_BLOCKS - 1);
    if (k >= Atomics.load(ctrl, Ctrl.Blocks)) return -1;
    if (Atomics.compareExchange(ctrl, Ctrl.Claim, v, v + 1) === v) return k;
  }
}

/**
 * Block claims that keep each thread on the same part of every job (the contact passes' colours): thread t of T
 * (the calling thread 0, worker w as w + 1) first takes the blocks of its home range, the t-th of T equal parts,
 * in order, then helps with the others' from the end of the range before its own backwards, which their owners
 * reach last. A colour's slots follow the contact cache's order, so block k of one colour touches about the bodies
 * that block k of the next does: kept on the same thread, their velocities stay in that core's cache instead of
 * moving to whichever thread claimed first (the shared claim counter of claimBlock hands out blocks in order of
 * arrival). Each block has its own claim word in `claims`: ~seq while open (openBlocks), seq once claimed, so a
 * late worker of an earlier job matches none of them.
 */
export class HomeClaims {
  private seq = 0;
  private n = 0;
  private home = 0;
  private own = 0;
  private j = 0;

  /** Starts the claims of job `seq` of `blocks` blocks for thread `t` of `threads`. */
  begin(seq: number, blocks: number, t: number, threads: number): void {
    this.seq = seq;
    this.n = blocks;
    this.home = Math.floor((t * blocks) / threads);
    this.own = Math.floor(((t + 1) * blocks) / threads) - this.home;
    this.j = 0;
  }

  /** The next block this thread claimed, or -1 when every block of the job is claimed. */
  next(claims: Int32Array): number {
    const n = this.n,
      open = ~this.seq;
    while (this.j < n) {
      const j = this.j++;
      const k = j < this.own ? this.home + j : (this.home - 1 - (j - this.own) + 2 * n) % n;
      if (Atomics.load(claims, k) === open && Atomics.compareExchange(claims, k, open, this.seq) === open) return k;
    }
    return -1;
  }
}

/** Opens blocks [0, blocks) of the job that will have sequence number `seq` (before publishJob publishes it). */
export function openBlocks(claims: Int32Array, seq: number, blocks: number): void {
  const open = ~seq;
  for (let k = 0; k < blocks; k++) Atomics.store(claims, k, open);
}

/** The sequence number publishJob will give the next job. */
export function nextSeq(ctrl: Int32Array): number {
  return (Atomics.load(ctrl, Ctrl.Seq) + 1) | 0;
}

/** Counts one block of the current job done; the last one wakes the main thread if it sleeps (Node). */
export function blockDone(ctrl: Int32Array): void {
  const done = Atomics.add(ctrl, Ctrl.Done, 1) + 1;
  if (done === Atomics.load(ctrl, Ctrl.Blocks) && Atomics.load(ctrl, Ctrl.MainWaits) !== 0) Atomics.notify(ctrl, Ctrl.Done);
}

/**
 * Publishes a job (main thread): its command, arrays' generation and size, then opens its claim word and bumps
 * the sequence number, in that order, so that a worker that sees the new sequence or claim sees the whole job.
 * Returns the job's sequence number.
 */
export function publishJob(ctrl: Int32Array, command: number, generation: number, blocks: number, items: number): number {
  const seq = nextSeq(ctrl);
  Atomics.store(ctrl, Ctrl.Claim, CLOSED);
  Atomics.store(ctrl, Ctrl.Command, command);
  Atomics.store(ctrl, Ctrl.Generation, generation);
  Atomics.store(ctrl, Ctrl.Blocks, blocks);
  Atomics.store(ctrl, Ctrl.Items, items);
  Atomics.store(ctrl, Ctrl.Done, 0);
  Atomics.store(ctrl, Ctrl.Claim, (seq & JOB_MASK) << BLOCK_BITS);
  Atomics.store(ctrl, Ctrl.Seq, seq);
  // A worker counts itself a sleeper before it checks Seq and waits (awaitJob): either it is counted here, or its
  // wait sees the new Seq and returns at once.
  if (Atomics.load(ctrl, Ctrl.Sleepers) !== 0) Atomics.notify(ctrl, Ctrl.Seq);
  return seq;
}

/**
 * Spins of a worker after a contact pass's job: the next colour's or pass's job follows within microseconds to a few
 * hundred (the calling thread integrates the bodies between substeps), and a worker woken from `Atomics.wait` takes
 * tens of microseconds to start, about what a colour's blocks take.
 */
export const CONTACT_SPIN = 100_000;

/**
 * Waits (worker) until the sequence number differs from `seen` and returns the new one: spins `spin` loads, then
 * sleeps in `Atomics.wait` (which a worker may call) until the main thread's notify.
 */
export function awaitJob(ctrl: Int32Array, seen: number, spin = SPIN): number {
  for (let s = 0; s < spin; s++) {
    const v = Atomics.load(ctrl, Ctrl.Seq);
    if (v !== seen) return v;
  }
  for (;;) {
    Atomics.add(ctrl, Ctrl.Sleepers, 1);
    Atomics.wait(ctrl, Ctrl.Seq, seen);
    Atomics.sub(ctrl, Ctrl.Sleepers, 1);
    const v = Atomics.load(ctrl, Ctrl.Seq);
    if (v !== seen) return v;
  }
}

/** Whether this thread may block in `Atomics.wait` (workers and Node's main thread; not a browser's main thread). */
export function canBlock(): boolean {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits (main thread, after it ran out of blocks to claim) until all `blocks` of the job are done. Spins, then
 * yields in 1 ms `Atomics.wait`s where this thread may block (so an oversubscribed machine runs the workers),
 * else keeps spinning. Between waits `alive()` is asked whether the workers still stand; returns false (the
 * caller falls back) when it says no, when a worker reported a failure, or when no block finished for
 * `patienceMs`.
 */
export function awaitBlocks(ctrl: Int32Array, blocks: number, block: boolean, alive: () => boolean, patienceMs: number): boolean {
  let done = Atomics.load(ctrl, Ctrl.Done);
  for (let s = 0; s < SPIN && done < blocks; s++) done = Atomics.load(ctrl, Ctrl.Done);
  if (done >= blocks) return Atomics.load(ctrl, Ctrl.Failed) === 0;
  let last = done;
  let since = now();
  for (;;) {
    if (block) {
      // Counted as waiting before the wait checks Done: the last block's blockDone then sees it and notifies.
      Atomics.store(ctrl, Ctrl.MainWaits, 1);
      Atomics.wait(ctrl, Ctrl.Done, done, 1);
      Atomics.store(ctrl, Ctrl.MainWaits, 0);
    }
    else for (let s = 0; s < SPIN; s++) if (Atomics.load(ctrl, Ctrl.Done) !== done) break;
    done = Atomics.load(ctrl, Ctrl.Done);
    if (Atomics.load(ctrl, Ctrl.Failed) !== 0) return false;
    if (done >= blocks) return true;
    if (!alive()) return false;
    const t = now();
    if (done !== last) {
      last = done;
      since = t;
    } else if (t - since > patienceMs) return false;
  }
}

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}
