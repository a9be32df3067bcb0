/**
 * The pool of worker threads a world steps on (`threads` > 1). The constructor is synchronous: the workers start
 * in the background (Node: `worker_threads`; browsers: module Web Workers of dist/continuum.worker.mjs) and the
 * step uses them once they are ready; until then, and after a fall-back, the main thread runs every stage itself
 * with the same result.
 *
 * Shared state: the body columns the parallel stage touches are moved into `SharedArrayBuffer`s the first time a
 * stage runs and whenever the body store grew (between steps: it grows only when bodies are added); the pool's
 * own arrays (active ids, scratch, block stamps) likewise. Each change bumps a generation and posts the new
 * arrays to the workers; a worker bound to an older generation skips a job and rebinds, so binding never
 * blocks the step.
 *
 * Failure: a worker that throws, exits or is terminated, or that holds a block while nothing progresses for
 * {@link PATIENCE_MS}, makes the pool stop every worker and the world run on one thread from then on, with one
 * message saying why. The stage's blocks can be run again (./predictBlocks.ts), so the main thread finishes
 * the blocks that were not done and the step is neither lost nor half-applied.
 *
 * Where `SharedArrayBuffer` is missing (a page that is not cross-origin isolated) the pool starts no worker: the
 * world runs on one thread and says so once, naming the two headers the page needs.
 *
 * Stages: the motion part of the prediction ({@link WorkerPool.predictMotion}, ./predictBlocks.ts), the narrow
 * phase's shape testers ({@link WorkerPool.take}, ./narrowBlocks.ts, over replicas of the world's shapes,
 * ./shapeReplica.ts) and the contact passes colour by colour ({@link WorkerPool.contactPass}, ./contactBlocks.ts);
 * docs/threads.md tells how each keeps the serial result.
 *
 * The library loads this module (built to dist/continuum.pool.mjs, a file of its own) only for a world with
 * `threads` > 1 (./threads.ts), so the plain bundle does not carry it.
 */
import { BodyFlag, type BodySet } from "../dynamics/bodySet";
import type { IntList } from "../collections/intList";
import type { ManifoldBuffer } from "../collision/contactManifold";
import { apartAlongCentreLine } from "../collision/centreLineGap";
import { SeparatingAxisCache, wouldSeparate } from "../collision/separatingAxisCache";
import { Pose } from "../math/pose";
import type { ConvexShape, Shape } from "../shapes/shape";
import { ContinuousDetectionMode } from "../dynamics/continuousDetection";
import { MotionType } from "../dynamics/motionType";
import type { ContactCache } from "../dynamics/contacts/contactCache";
import { awaitBlocks, blockDone, canBlock, claimBlock, Command, controlWords, Ctrl, HomeClaims, MAX_BLOCKS, nextSeq, openBlocks, publishJob } from "./barrier";
import { commitPredictMotion, PREDICT_BODY_FIELDS, PredictBlocks, predictBlockCount, type PredictArrays } from "./predictBlocks";
import { INITIAL_REGION, JOB_IN, NarrowBlocks, narrowBlockCount, readJobOutput, writePose, type NarrowArrays } from "./narrowBlocks";
import { replicateShape } from "./shapeReplica";
import { PASS_WARM_START, type ContactConstraints, type ContactPassRunner } from "../dynamics/contacts/contactConstraints";
import { MF, M_FROZEN, M_ROLLING_RESISTANCE, SLOT_ANY_THREAD, SLOT_CALLER } from "../dynamics/contacts/constraintLayout";
import { COLOURS, OVERFLOW } from "../dynamics/contacts/constraintGraph";
import {
  CONTACT_BLOCK,
  CONTACT_BODY_FIELDS,
  MIN_THREADED_COLOUR,
  CONTACT_SOLVER_FIELDS,
  contactBlockCount,
  type ContactArrays,
  JOB_FLIP,
  JOB_FROM,
  JOB_H,
  JOB_OVERLAP_DEPTH,
  JOB_PASS,
  JOB_RESTING_SLIP,
  JOB_STICK_SPEED,
  JOB_TO,
} from "./contactBlocks";
import { predictMotion } from "../dynamics/integrator";
import { MAX_THREADS } from "./limits";

/**
 * What the pool reads of the world it serves (the world's state satisfies it): the pool sits below world/ and
 * names its needs rather than importing the world.
 */
export interface PoolWorld {
  readonly bodies: BodySet;
  readonly contactCache: ContactCache;
  readonly separations: SeparatingAxisCache;
  /** The broad phase's pairs of the step, as body slots (a, b, a, b, ...). */
  readonly scratch: { readonly collector: { readonly pairs: IntList } };
  shouldCollide(i: number, j: number): boolean;
  originPose(i: number, out: Pose): Pose;
}

/** How long the main thread waits for a claimed block while nothing progresses before it gives up on the pool. */
export const PATIENCE_MS = 5000;

/**
 * Fewest blocks a job is published for: one block runs on this thread, without waking a worker (a wake costs
 * microseconds, about what the stage costs for a block's 64 bodies).
 */
const MIN_BLOCKS = 2;

/**
 * Fewest broad-phase pairs for which the narrow phase forecasts its tester jobs (see WorkerPool.narrowJobs): below
 * it the forecast and a job's barrier cost more than the testers of so few pairs (a few microseconds each).
 */
export const NARROW_MIN_PAIRS = 128;
/** Fewest tester jobs published to the workers: fewer run in the world's own narrow phase, without a job. */
const NARROW_MIN_JOBS = 48;
/**
 * Steps without a forecast after one that found fewer than NARROW_MIN_JOBS jobs (a world at rest reuses most of
 * its manifolds): the forecast costs about what the loop's own tests do, so a world that needs few testers does not
 * pay it every step.
 */
const NARROW_IDLE_STEPS = 8;
/**
 * Steps without the threaded narrow phase after its measured gain turned negative (see narrowJobs): on a world of
 * cheap testers (boxes, spheres) the forecast costs more than the testers it moves; one step in this many probes again.
 */
const NARROW_LOSING_STEPS = 32;

/**
 * Every this many steps, two steps run their contact passes the other way (threaded or not) than the one that measured
 * faster, so that both times stay current (see WorkerPool.contactPass).
 */
const CONTACT_PROBE_PERIOD = 64;
/** Steps whose contact passes run threaded before the pool first times them on this thread (see WorkerPool.chooseWay). */
const CONTACT_FIRST_STEPS = 16;

/** Why a world runs on one thread when SharedArrayBuffer is missing (said once per process). */
export const NO_SHARED_MEMORY_MESSAGE =
  "Continuum: threads > 1 needs SharedArrayBuffer, which this page does not have (it is not cross-origin isolated); " +
  "running on one thread. Serve the page with the headers Cross-Origin-Opener-Policy: same-origin and " +
  "Cross-Origin-Embedder-Policy: require-corp.";

let saidNoSharedMemory = false;

/** Options of a pool (World settings `threads` and `workerUrl`). */
export interface WorkerPoolOptions {
  /** Threads in all, the main thread included (2..{@link MAX_THREADS}). */
  threads: number;
  /** The worker script (dist/continuum.worker.mjs); default: beside the module that holds this code. */
  workerUrl?: string | URL;
  /** Where messages go (default console.warn). */
  warn?: (message: string) => void;
}

/** What the pool needs of a worker on either platform. */
interface WorkerHandle {
  post(message: unknown): void;
  terminate(): void;
  /** Node: false once the thread stopped running (threadId -1), even before its exit event. */
  running(): boolean;
  /** The platform's worker object (tests terminate it). */
  readonly raw: unknown;
}

const enum State {
  Starting,
  Running,
  /** Fallen back to one thread, or stopped. */
  Off,
}

/** A pool of worker threads and the parallel stages it runs (see the file comment). */
export class WorkerPool implements ContactPassRunner {
  /** Threads asked for, the main thread included. */
  readonly requested: number;
  /** Blocks the workers (not the main thread) have run so far: how much of the stage they took (tests, overlays). */
  workerBlocks = 0;
  /** Of those, the narrow phase's blocks (tests: the threaded narrow phase really ran). */
  narrowWorkerBlocks = 0;
  /** Of those, the contact passes' blocks (tests: the threaded contact passes really ran). */
  contactWorkerBlocks = 0;
  /**
   * @internal Whether the threaded narrow phase stops for a while when it measured a loss (default true); tests turn
   * it off so that it runs at every step whatever the machine's load.
   */
  narrowByTiming = true;
  /** Why the pool runs on one thread (null while it runs or starts). */
  message: string | null = null;

  private state = State.Starting;
  private readonly workers: (WorkerHandle | null)[] = [];
  /** This thread's claims of a contact pass's blocks (thread 0 of the pool's, see HomeClaims). */
  private readonly homeClaims = new HomeClaims();
  /** Workers that said they are listening (they get the arrays then). */
  private readonly listening: boolean[] = [];
  private readonly ctrl: Int32Array;
  private readonly mayBlock: boolean;
  private readonly warn: (message: string) => void;
  private generation = 0;
  private arrays: PredictArrays | null = null;
  private readonly blocks = new PredictBlocks();
  /** The narrow phase's shared arrays (null until its first job), its blocks (this thread's replicas). */
  private narrow: NarrowArrays | null = null;
  private readonly narrowBlocks = new NarrowBlocks();
  /** Set when a job's output did not fit its block's region: the regions double before the next job. */
  private narrowOverflow = false;
  /** The world's shapes by replica id, and the id of each. */
  private readonly sourceShapes: Shape[] = [];
  private readonly shapeIds = new Map<Shape, number>();
  /** Shapes posted to each worker so far (ids below it). */
  private readonly shapesSent: number[] = [];
  /** Per broad-phase pair of this step: its tester job, -1 if none. Main thread only. */
  private jobOf = new Int32Array(0);
  /** Per job: 1 for a pair the separating-axis cache handles (see {@link take}). */
  private jobAxis = new Uint8Array(0);
  /** Set by each step's first stage (the prediction): the narrow phase's next {@link take} forecasts anew. */
  private forecastDue = false;
  /** Whether this step's tester job ran. */
  private hasJobs = false;
  /** Steps left without a forecast (see NARROW_IDLE_STEPS). */
  private narrowIdle = 0;
  /** Smoothed gain of the threaded narrow phase per step, ms (see narrowJobs). */
  private narrowGain = 0;
  /** This thread's time in its blocks during the last job (ms), and their count. */
  private mainBlockMs = 0;
  /**
   * @internal Whether each step's contact passes go the way that measured faster (default true, see contactPass); tests
   * turn it off so that every pass goes over threads whatever the machine's load.
   */
  contactByTiming = true;
  /**
   * Per way of running a step's contact passes (0 this thread, 1 threaded): the smoothed time per manifold and pass
   * (ms; 0 not measured yet). See contactPass.
   */
  private readonly passCost = new Float64Array(2);
  /**
   * The way this step's contact passes run (-1 before the first step), the steps in a row that ran them that way
   * (steps with passes here only), and the steps with passes here so far.
   */
  private stepWay = -1;
  private wayRun = 0;
  private contactSteps = 0;
  /** This step's time in its contact passes (ms) and their manifolds summed over its passes. */
  private stepMs = 0;
  private stepWork = 0;
  /** Set by each step's first warm start: the calling thread's slots are marked at the step's first threaded pass. */
  private callerSlotsDue = false;
  private mainBlocks = 0;
  /** The world of the step under way (the pool serves one world). */
  private world: PoolWorld | null = null;
  private readonly poseA = new Pose();
  private readonly poseB = new Pose();
  /** Blocks of the last job whose count the next job waits for (a narrow-phase job, see runJob); 0 when none. */
  private pendingBlocks = 0;
  /** The contact passes' shared arrays (null until their first job). */
  private contact: ContactArrays | null = null;
  /** The solver and bodies of the contact pass under way (this thread runs its blocks on them directly). */
  private contactSolver: ContactConstraints | null = null;
  private contactBodies: BodySet | null = null;
  /** The kinds (a bit per ConstraintArrays.kind) of the colour's slots this thread solves while workers run blocks. */
  private contactCallerKinds = 0;
  /** Whether every worker still runs (awaitBlocks asks while it waits); one function for the pool's life. */
  private readonly alive = (): boolean => this.allRunning();

  constructor(options: WorkerPoolOptions) {
    const n = options.threads;
    if (!Number.isInteger(n) || n < 2 || n > MAX_THREADS) throw new RangeError(`threads must be an integer in 2..${MAX_THREADS}, got ${String(n)}`);
    this.requested = n;
    this.warn = options.warn ?? ((m) => console.warn(m));
    if (typeof SharedArrayBuffer === "undefined" || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false) {
      this.state = State.Off;
      this.message = NO_SHARED_MEMORY_MESSAGE;
      if (!saidNoSharedMemory) {
        saidNoSharedMemory = true;
        this.warn(NO_SHARED_MEMORY_MESSAGE);
      }
      this.ctrl = new Int32Array(0); // no worker, no job
      this.mayBlock = false;
      return;
    }
    this.ctrl = new Int32Array(new SharedArrayBuffer(controlWords(n - 1) * 4));
    for (let w = 0; w < n - 1; w++) {
      Atomics.store(this.ctrl, Ctrl.Bound + w, -1);
      this.workers.push(null);
      this.listening.push(false);
      this.shapesSent.push(0);
    }
    this.mayBlock = canBlock();
    void this.start(options.workerUrl);
  }

  /**
   * Threads running the step now: 1 until the workers are ready (started and listening; each takes the arrays at
   * its first job), and after a fall-back or {@link stop}.
   */
  get threads(): number {
    if (this.state !== State.Running) return 1;
    let n = 1;
    for (let w = 0; w < this.workers.length; w++) if (this.listening[w]) n++;
    return n;
  }

  /** @internal The platform's worker objects (Node `Worker`s or Web Workers), for tests that kill one. */
  get rawWorkers(): unknown[] {
    return this.workers.map((w) => (w === null ? null : w.raw));
  }

  /** Stops every worker; the world runs on one thread from now on. */
  stop(): void {
    this.shutDown(null);
  }

  /**
   * The motion part of the prediction (predictMotion) for every active body: over the workers when they run,
   * else on this thread. The same result either way.
   */
  predictMotion(ws: PoolWorld, active: IntList, step: Float64Array): void {
    // The prediction runs every step before the narrow phase (src/world/stages/predict.ts): the mark of a new
    // step, and the world the narrow phase's {@link take} works on.
    this.forecastDue = true;
    this.world = ws;
    const b = ws.bodies;
    const items = active.count;
    // A worker that stopped since the last job (killed, crashed) is noticed here even if its exit event has not
    // been delivered yet (a loop of steps that never yields to the event loop).
    if (this.state === State.Running && !this.allRunning()) this.shutDown(`${this.stoppedWorker()} stopped`);
    const nBlocks = predictBlockCount(items);
    if (!this.anyListening() || nBlocks < MIN_BLOCKS || nBlocks > MAX_BLOCKS) {
      const ids = active.data;
      for (let k = 0; k < items; k++) predictMotion(b, ids[k], step);
      return;
    }
    this.drain();
    const a = this.share(b, items);
    a.ids.set(active.data.subarray(0, items));
    for (let k = 0; k < 6; k++) a.step[k] = step[k];
    this.runJob(Command.PredictMotion, nBlocks, items, a.stamps);
    commitPredictMotion(a, items);
  }

  /**
   * Publishes a job of `nBlocks` blocks, runs blocks on this thread until none is left to claim, then waits for
   * the workers' blocks. When a worker fails or stops, the pool falls back to one thread and the blocks not done
   * run here: finished ones wrote exactly what a rerun would.
   */
  private runJob(command: number, nBlocks: number, items: number, stamps: Int32Array): void {
    const ctrl = this.ctrl;
    this.drain();
    const contact = command === Command.ContactPass ? this.contact! : null;
    if (contact !== null) openBlocks(contact.claims, nextSeq(ctrl), nBlocks);
    const seq = publishJob(ctrl, command, this.generation, nBlocks, items);
    const t0 = now();
    if (contact !== null) {
      // The colour's slots that stay on this thread, while the workers start on its blocks (no body in common).
      this.contactSolver!.runRange(contact.jobInt[JOB_PASS], this.contactBodies!, contact.jobInt[JOB_FROM], contact.jobInt[JOB_TO], this.contactCallerKinds);
      this.homeClaims.begin(seq, nBlocks, 0, this.workers.length + 1);
    }
    const tBlocks = now();
    let mine = 0;
    for (;;) {
      const k = contact !== null ? this.homeClaims.next(contact.claims) : claimBlock(ctrl, seq);
      if (k < 0) break;
      this.runBlock(command, k, items);
      Atomics.store(stamps, k, seq);
      blockDone(ctrl);
      mine++;
    }
    this.mainBlockMs = now() - tBlocks;
    this.mainBlocks = mine;
    if (command === Command.NarrowPhase) {
      // Blocks a worker claimed and has not finished run here too, last first (workers go first to last), rather
      // than waiting for a worker that may not have a core (a busy machine): a block's output depends on its jobs
      // only, so both write the same numbers. The worker's count of the block done comes later; the next job waits
      // for it first (drain), before anything it reads or writes changes.
      for (let k = nBlocks - 1; k >= 0; k--) {
        if (Atomics.load(stamps, k) === seq) continue;
        this.runBlock(command, k, items);
        mine++;
      }
      this.pendingBlocks = nBlocks;
      this.mainBlockMs = now() - t0;
      this.mainBlocks = mine;
    } else if (!awaitBlocks(ctrl, nBlocks, this.mayBlock, this.alive, PATIENCE_MS)) {
      this.fallBack();
      for (let k = 0; k < nBlocks; k++) {
        if (Atomics.load(stamps, k) === seq) continue;
        this.runBlock(command, k, items);
        mine++;
      }
    }
    this.workerBlocks += nBlocks - mine;
    if (command === Command.NarrowPhase) this.narrowWorkerBlocks += nBlocks - mine;
    else if (command === Command.ContactPass) this.contactWorkerBlocks += nBlocks - mine;
  }

  /**
   * Waits until every block of the last job was counted done (its results are complete already: see runJob), so
   * that no worker still runs a block when the arrays change or the next job starts; falls back to one thread when
   * a worker stopped or failed meanwhile.
   */
  private drain(): void {
    const n = this.pendingBlocks;
    if (n === 0) return;
    this.pendingBlocks = 0;
    if (this.state === State.Running && !awaitBlocks(this.ctrl, n, this.mayBlock, this.alive, PATIENCE_MS)) this.fallBack();
  }

  /** Stops the pool after a job's wait failed, saying why. */
  private fallBack(): void {
    const failed = Atomics.load(this.ctrl, Ctrl.Failed);
    this.shutDown(failed !== 0 ? `worker ${failed - 1} failed` : this.allRunning() ? `a worker did not finish its block in ${PATIENCE_MS} ms` : `${this.stoppedWorker()} stopped`);
  }


  private runBlock(command: number, k: number, items: number): void {
    if (command === Command.NarrowPhase) this.narrowBlocks.run(k, items);
    else if (command === Command.ContactPass) {
      const ji = this.contact!.jobInt;
      const from = ji[JOB_FROM] + k * CONTACT_BLOCK;
      this.contactSolver!.runRange(ji[JOB_PASS], this.contactBodies!, from, Math.min(ji[JOB_TO], from + CONTACT_BLOCK), 1 << SLOT_ANY_THREAD);
    } else this.blocks.run(k, items);
  }

  /**
   * A pass of the contact solver (ContactConstraints.visit): `pass` (PASS_*) over the slots whose kind is
   * in `kinds`. Returns false (the solver runs it itself) while no worker listens or the world has fewer than
   * MIN_THREADED_COLOUR manifolds. Otherwise runs it here, threaded or on this thread, and returns true: all of a
   * step's passes go the way that measured faster ({@link chooseWay}), so a machine whose workers get no core of their
   * own (two virtual cores on one physical core, a busy machine) runs them on this thread. Threaded, a pass goes
   * colour by colour (see {@link colourJob}). Timing decides only who solves, never what.
   */
  contactPass(solver: ContactConstraints, bodies: BodySet, pass: number, kinds: number): boolean {
    const count = solver.cache.count;
    // A step's passes begin with the warm start of its substep 0: the calling thread's slots (prepare marks only the pin
    // candidates) are marked at the step's first threaded pass, and the step's way is chosen.
    if (pass === PASS_WARM_START && solver.substep === 0) {
      this.callerSlotsDue = true;
      this.chooseWay();
    }
    if (count < MIN_THREADED_COLOUR || !solver.settings.colouredPasses) return false;
    if (this.state === State.Running && !this.allRunning()) this.shutDown(`${this.stoppedWorker()} stopped`);
    if (!this.anyListening()) return false;
    const useThreads = this.stepWay !== 0 || !this.contactByTiming;
    const t0 = now();
    if (!useThreads) solver.runRange(pass, bodies, 0, count, kinds);
    else {
      this.drain();
      this.shareContacts(solver, bodies);
      if (this.callerSlotsDue) this.markCallerSlots(solver);
      const start = solver.graph.start;
      const callerKinds = kinds & ~(1 << SLOT_ANY_THREAD);
      for (let c = 0; c < COLOURS; c++) {
        const from = start[c],
          to = start[c + 1];
        if (to - from >= MIN_THREADED_COLOUR) this.colourJob(solver, bodies, pass, from, to, callerKinds);
        else solver.runRange(pass, bodies, from, to, kinds);
      }
      solver.runRange(pass, bodies, start[OVERFLOW], count, kinds);
    }
    this.stepMs += now() - t0;
    this.stepWork += count;
    return true;
  }

  /**
   * At a step's first contact pass: counts the last step's passes towards its way's time, then picks this step's way:
   * threaded for the first {@link CONTACT_FIRST_STEPS} steps (the workers' code is compiled while they run), then
   * this thread until it is measured, then the faster, and the other for two steps every CONTACT_PROBE_PERIOD.
   * The first step of a run of one way is not counted (threaded, it pays for waking the workers and moving the
   * bodies' lines into their caches, which the next step does not); the second sets the way's time (a probe's,
   * measured once in CONTACT_PROBE_PERIOD steps, would otherwise take many probes to forget the first, cold ones);
   * the later ones are smoothed into it. Timed pass by pass instead, with one pass in 64 probing the other way, the
   * threaded probes met sleeping workers and kept a cold first time: thin-2000 stayed on one thread at 23-33 ms a
   * step where its passes forced over threads took 23-25 (docs/threads.md).
   */
  private chooseWay(): void {
    const way = this.stepWay;
    if (this.stepWork > 0) {
      const per = this.stepMs / this.stepWork;
      if (++this.wayRun === 2) this.passCost[way] = per;
      else if (this.wayRun > 2) this.passCost[way] = 0.8 * this.passCost[way] + 0.2 * per;
      this.contactSteps++;
    }
    this.stepMs = this.stepWork = 0;
    const alone = this.passCost[0],
      threaded = this.passCost[1];
    let next = this.contactSteps < CONTACT_FIRST_STEPS || threaded === 0 ? 1 : alone === 0 ? 0 : threaded <= alone ? 1 : 0;
    if (alone !== 0 && this.contactSteps % CONTACT_PROBE_PERIOD >= CONTACT_PROBE_PERIOD - 2) next = 1 - next;
    if (next !== way) this.wayRun = 0;
    this.stepWay = next;
  }

  /**
   * Marks the slots whose passes reach beyond their two bodies (constraintLayout.ts SLOT_CALLER): a frozen manifold
   * (shock propagation routes into its lower body's support), rolling resistance (per-manifold state of the calling
   * thread's module), a jointed body (its relax-pass friction reads the joints' set).
   */
  private markCallerSlots(solver: ContactConstraints): void {
    this.callerSlotsDue = false;
    const k4 = solver.arrays,
      kind = k4.kind,
      mf = k4.mf,
      pair = k4.pair,
      jointed = solver.jointed;
    for (let i = 0; i < solver.cache.count; i++) {
      const m = i * MF;
      if (kind[i] !== SLOT_ANY_THREAD) continue;
      if (mf[m + M_FROZEN] !== 0 || mf[m + M_ROLLING_RESISTANCE] > 0 || jointed.has(pair[i * 2]) || jointed.has(pair[i * 2 + 1])) kind[i] = SLOT_CALLER;
    }
  }

  /**
   * One contact pass over the colour [from, to): its SLOT_ANY_THREAD slots over blocks
   * on every thread, its slots of `callerKinds` on this thread; returns when all are done. A block a failed worker did
   * not finish runs again here: the pool falls back to one thread, and that block's manifolds get one more visit (a
   * Gauss-Seidel pass over a constraint is not undone by another; the worker's impulses already applied stay).
   */
  private colourJob(solver: ContactConstraints, bodies: BodySet, pass: number, from: number, to: number, callerKinds: number): void {
    const c = this.contact!;
    const settings = solver.settings;
    c.jobInt[JOB_PASS] = pass;
    c.jobInt[JOB_FROM] = from;
    c.jobInt[JOB_TO] = to;
    c.jobInt[JOB_FLIP] = solver.substep & 1;
    c.jobF[JOB_H] = solver.passH;
    c.jobF[JOB_OVERLAP_DEPTH] = settings.overlapDepth;
    c.jobF[JOB_RESTING_SLIP] = settings.restingSlip;
    c.jobF[JOB_STICK_SPEED] = settings.stickSpeed;
    this.contactSolver = solver;
    this.contactBodies = bodies;
    this.contactCallerKinds = callerKinds;
    const nBlocks = contactBlockCount(to - from);
    if (this.state !== State.Running || nBlocks > c.stamps.length) {
      // Fallen back since the pass began (a worker stopped during one of its colours): this thread solves it all.
      solver.runRange(pass, bodies, from, to, callerKinds | (1 << SLOT_ANY_THREAD));
      return;
    }
    this.runJob(Command.ContactPass, nBlocks, to - from, c.stamps);
  }

  /** The contact passes' arrays, shared: body columns and the solver's arrays moved into shared memory; rebinds on change. */
  private shareContacts(solver: ContactConstraints, bodies: BodySet): void {
    let a = this.contact;
    let changed = a === null;
    const cols = bodies as unknown as Record<string, Float64Array>;
    for (const name of CONTACT_BODY_FIELDS) {
      cols[name] = shared(cols[name]);
      if (a === null || a[name] !== cols[name]) changed = true;
    }
    const k4 = solver.arrays as unknown as Record<string, Float64Array>;
    for (const name of CONTACT_SOLVER_FIELDS) {
      k4[name] = shared(k4[name]);
      if (a === null || (a as unknown as Record<string, unknown>)[name] !== k4[name]) changed = true;
    }
    solver.pushVel = shared(solver.pushVel);
    solver.pushAngVel = shared(solver.pushAngVel);
    if (a === null || a.pushVel !== solver.pushVel || a.pushAngVel !== solver.pushAngVel) changed = true;
    // Blocks of the largest colour possible: every slot in one colour.
    const blocks = contactBlockCount(solver.arrays.kind.length);
    if (a === null || a.stamps.length < blocks) changed = true;
    if (!changed) return;
    const next = {
      jobInt: a?.jobInt ?? new Int32Array(new SharedArrayBuffer(16)),
      jobF: a?.jobF ?? sharedF64(8),
      stamps: a !== null && a.stamps.length >= blocks ? a.stamps : new Int32Array(new SharedArrayBuffer(Math.max(blocks, 64) * 4)),
      claims: a !== null && a.claims.length >= blocks ? a.claims : new Int32Array(new SharedArrayBuffer(Math.max(blocks, 64) * 4)),
      pushVel: solver.pushVel,
      pushAngVel: solver.pushAngVel,
    } as unknown as Record<string, unknown>;
    for (const name of CONTACT_BODY_FIELDS) next[name] = cols[name];
    for (const name of CONTACT_SOLVER_FIELDS) next[name] = k4[name];
    this.contact = next as unknown as ContactArrays;
    this.rebind();
  }

  /**
   * The threaded narrow phase, called by the world's narrow phase (src/world/stages/contacts.ts) where pair k
   * (index into the broad-phase pair list) would run its shape tester: writes that tester's output into `mb` (as
   * if it had just run) and returns true, or returns false (the caller runs the tester). The step's first call
   * does the work: it forecasts which of the pairs from k on will reach a tester, with which inputs (the world
   * loop's tests, in its order, none of them keeping anything: the contact cache's reuse, the centre line, the
   * separating-axis cache's answer), and runs those testers over the pool's blocks; the later calls read their
   * output. So the caches and the solver see everything in pair order whatever thread made it, and a wrong
   * forecast costs time, never the result. Nothing runs (false throughout the step) when no worker listens, the
   * world has few pairs, or few need a tester.
   *
   * An empty output of a pair the separating-axis cache handles is not taken: the cache then reads the axis the
   * library's generic tester left behind (collision/convexGeneric.ts separatingAxis), which only its own call sets.
   */
  take(k: number, mb: ManifoldBuffer): boolean {
    if (this.forecastDue) {
      this.forecastDue = false;
      this.hasJobs = this.narrowJobs(this.world!, k);
    }
    if (!this.hasJobs) return false;
    const j = this.jobOf[k >> 1];
    if (j < 0) return false;
    const a = this.narrow!;
    const n = a.jobOut[2 * j + 1];
    if (n < 0) {
      this.narrowOverflow = true;
      return false;
    }
    if (n === 0 && this.jobAxis[j] === 1) return false;
    readJobOutput(a, j, n, mb);
    return true;
  }

  /** The step's forecast and tester job from pair index `from` on (see {@link take}); false when no job ran. */
  private narrowJobs(ws: PoolWorld, from: number): boolean {
    if (this.state === State.Running && !this.allRunning()) this.shutDown(`${this.stoppedWorker()} stopped`);
    const p = ws.scratch.collector.pairs;
    const pairs = p.count >> 1;
    if (!this.anyListening() || pairs < NARROW_MIN_PAIRS) return false;
    if (this.narrowIdle > 0) {
      this.narrowIdle--;
      return false;
    }
    // A worker may still count a block of the last job done (runJob): wait before the inputs change.
    this.drain();
    if (this.jobOf.length < pairs) {
      this.jobOf = new Int32Array(Math.max(pairs, 2 * this.jobOf.length));
      this.jobAxis = new Uint8Array(this.jobOf.length);
    }
    const a = this.shareNarrow(pairs);
    const t0 = now();
    const jobs = this.forecast(ws, a, from);
    const nBlocks = narrowBlockCount(jobs);
    if (jobs < NARROW_MIN_JOBS || nBlocks > MAX_BLOCKS) {
      this.narrowIdle = NARROW_IDLE_STEPS;
      this.narrowGain = 0;
      return false;
    }
    // Shapes the workers have not seen: they take them (and rebind) at their next job.
    for (let w = 0; w < this.workers.length; w++) {
      if (this.listening[w] && this.shapesSent[w] < this.sourceShapes.length) {
        this.rebind();
        break;
      }
    }
    const t1 = now();
    this.runJob(Command.NarrowPhase, nBlocks, jobs, a.stamps);
    // What it gained: the testers' time on one thread (this thread's time a block, times the blocks) less what
    // the forecast and the job took. Smoothed over steps; when it turns negative the world's loop runs its testers
    // itself for a while. Timing decides only where the testers run, never what they give.
    const serial = this.mainBlocks > 0 ? (this.mainBlockMs / this.mainBlocks) * nBlocks : 0;
    this.narrowGain = 0.75 * this.narrowGain + 0.25 * (serial - (now() - t0));
    if (this.narrowGain < 0 && this.narrowByTiming) {
      this.narrowIdle = NARROW_LOSING_STEPS;
      this.narrowGain = 0;
    }
    return true;
  }

  /** The forecast of {@link narrowJobs} over pairs from index `from`: writes the jobs into `a` and jobOf; returns their count. */
  private forecast(ws: PoolWorld, a: NarrowArrays, from: number): number {
    const b = ws.bodies;
    const p = ws.scratch.collector.pairs;
    const jobOf = this.jobOf;
    const pa = this.poseA,
      pb = this.poseB;
    const inp = a.jobIn,
      ids = a.jobShapes;
    let jobs = 0;
    for (let k = from; k < p.count; k += 2) {
      jobOf[k >> 1] = -1;
      let ia = b.slotToDense[p.data[k]],
        ib = b.slotToDense[p.data[k + 1]];
      const ta = b.motionType[ia],
        tb = b.motionType[ib];
      const flags = b.flags[ia] | b.flags[ib];
      // Triggers collide through another call; a Continuous body may sweep (contacts at other poses).
      if ((flags & BodyFlag.Trigger) !== 0) continue;
      if (b.continuity[ia] === ContinuousDetectionMode.Continuous || b.continuity[ib] === ContinuousDetectionMode.Continuous) continue;
      const childTriggers = (flags & BodyFlag.ChildTriggers) !== 0;
      if (ta !== MotionType.Dynamic && tb !== MotionType.Dynamic && !childTriggers) continue;
      const margin = b.margin[ia] + b.margin[ib];
      // The loop's bounding-sphere cull (symmetric in A and B), first here: the most pairs fail it.
      if (!childTriggers) {
        const a3 = ia * 3,
          b3 = ib * 3;
        const dx = b.pos[b3] - b.pos[a3],
          dy = b.pos[b3 + 1] - b.pos[a3 + 1],
          dz = b.pos[b3 + 2] - b.pos[a3 + 2];
        const reach = b.radius[ia] + b.radius[ib] + margin;
        if (dx * dx + dy * dy + dz * dz > reach * reach) continue;
      }
      if (!ws.shouldCollide(ia, ib)) continue;
      if (ta === MotionType.Static || (tb !== MotionType.Static && b.handle[ia] > b.handle[ib])) {
        const t = ia;
        ia = ib;
        ib = t;
      }
      const shapeA = b.shape[ia]!,
        shapeB = b.shape[ib]!;
      const split = (flags & BodyFlag.ChildSurfaces) !== 0;
      const cacheable = !childTriggers && !split;
      if (cacheable && ws.contactCache.findReusable(b, ia, ib) >= 0) continue;
      if (!childTriggers && apartAlongCentreLine(shapeA, shapeB, b.pos, b.rot, b.localCom, b.margin, ia, ib)) continue;
      const idA = this.shapeId(shapeA),
        idB = this.shapeId(shapeB);
      const ra = this.narrowBlocks.shapes[idA],
        rb = this.narrowBlocks.shapes[idB];
      ws.originPose(ia, pa);
      ws.originPose(ib, pb);
      const axisPair = cacheable && ra.type <= 4 && rb.type <= 4 && SeparatingAxisCache.handles(ra as ConvexShape, rb as ConvexShape);
      if (axisPair && wouldSeparate(ws.separations, b.handle[ia], b.handle[ib], margin, ra as ConvexShape, pa, rb as ConvexShape, pb)) continue;
      this.jobAxis[jobs] = axisPair ? 1 : 0;
      const i = jobs * JOB_IN;
      writePose(pa, inp, i);
      writePose(pb, inp, i + 7);
      inp[i + 14] = margin;
      inp[i + 15] = split ? 0 : 1;
      ids[2 * jobs] = idA;
      ids[2 * jobs + 1] = idB;
      jobOf[k >> 1] = jobs++;
    }
    return jobs;
  }

  /** The replica id of a world's shape, making its replica (this thread's) the first time. */
  private shapeId(shape: Shape): number {
    let id = this.shapeIds.get(shape);
    if (id === undefined) {
      id = this.sourceShapes.length;
      this.sourceShapes.push(shape);
      this.shapeIds.set(shape, id);
      this.narrowBlocks.shapes.push(replicateShape(shape));
    }
    return id;
  }

  /** The narrow phase's arrays, large enough for `pairs` jobs (and grown regions after an overflow); rebinds on change. */
  private shareNarrow(pairs: number): NarrowArrays {
    let a = this.narrow;
    const region = a === null ? INITIAL_REGION : this.narrowOverflow ? 2 * a.region : a.region;
    this.narrowOverflow = false;
    if (a === null || a.jobShapes.length < 2 * pairs || region !== a.region) {
      const jobs = Math.max(pairs, 2 * (a === null ? 0 : a.jobShapes.length >> 1), 256);
      const blocks = narrowBlockCount(jobs);
      a = {
        jobIn: sharedF64(jobs * JOB_IN),
        jobShapes: new Int32Array(new SharedArrayBuffer(jobs * 8)),
        jobOut: new Int32Array(new SharedArrayBuffer(jobs * 8)),
        out: sharedF64(blocks * region),
        region,
        stamps: new Int32Array(new SharedArrayBuffer(blocks * 4)),
      };
      this.narrow = a;
      this.narrowBlocks.bind(a);
      this.rebind();
    }
    return a;
  }

  /** A new generation of the shared arrays: every listening worker gets them (and the shapes it lacks). */
  private rebind(): void {
    this.generation++;
    for (let w = 0; w < this.workers.length; w++) this.bind(w);
  }

  /** The arrays of the stage, shared: body columns moved into shared memory, pool arrays large enough; rebinds on change. */
  private share(b: BodySet, items: number): PredictArrays {
    let a = this.arrays;
    let changed = a === null;
    const cols = b as unknown as Record<string, Float64Array | Uint8Array>;
    for (const name of PREDICT_BODY_FIELDS) {
      const col = cols[name];
      if (!(col.buffer instanceof SharedArrayBuffer)) {
        const copy = new (col.constructor as Float64ArrayConstructor)(new SharedArrayBuffer(col.byteLength));
        copy.set(col as Float64Array);
        cols[name] = copy;
      }
      if (a === null || (a as unknown as Record<string, unknown>)[name] !== cols[name]) changed = true;
    }
    const scratchLength = b.capacity * 3;
    const blocks = predictBlockCount(items);
    if (a === null || a.scratchVel.length < scratchLength || a.ids.length < items || a.stamps.length < blocks) {
      const idsLength = Math.max(items, 2 * (a?.ids.length ?? 0), 64);
      a = {
        ...(a ?? ({} as PredictArrays)),
        scratchVel: sharedF64(Math.max(scratchLength, a?.scratchVel.length ?? 0)),
        scratchAngVel: sharedF64(Math.max(scratchLength, a?.scratchVel.length ?? 0)),
        ids: new Int32Array(new SharedArrayBuffer(idsLength * 4)),
        stamps: new Int32Array(new SharedArrayBuffer(predictBlockCount(idsLength) * 4)),
        step: a?.step ?? sharedF64(8),
      };
      changed = true;
    }
    if (changed) {
      for (const name of PREDICT_BODY_FIELDS) (a as unknown as Record<string, unknown>)[name] = cols[name];
      this.arrays = a;
      this.blocks.bind(a);
      this.rebind();
    }
    return a;
  }

  /** Posts the shapes worker w lacks and the current arrays to it, if it listens. */
  private bind(w: number): void {
    const worker = this.workers[w];
    if (worker === null || !this.listening[w] || (this.arrays === null && this.narrow === null && this.contact === null)) return;
    const sent = this.shapesSent[w];
    if (sent < this.sourceShapes.length) {
      worker.post({ type: "shapes", first: sent, shapes: this.sourceShapes.slice(sent) });
      this.shapesSent[w] = this.sourceShapes.length;
    }
    worker.post({ type: "bind", index: w, threads: this.workers.length + 1, generation: this.generation, ctrl: this.ctrl, arrays: this.arrays, narrow: this.narrow, contact: this.contact });
  }

  /** Whether the pool runs and some worker listens (it may still be binding: the main thread then works alone). */
  private anyListening(): boolean {
    if (this.state !== State.Running) return false;
    for (let w = 0; w < this.listening.length; w++) if (this.listening[w]) return true;
    return false;
  }

  /** "worker i" for the first worker that no longer runs. */
  private stoppedWorker(): string {
    for (let w = 0; w < this.workers.length; w++) if (this.workers[w] !== null && !this.workers[w]!.running()) return `worker ${w}`;
    return "a worker";
  }

  private allRunning(): boolean {
    if (this.state !== State.Running) return false;
    for (const w of this.workers) if (w !== null && !w.running()) return false;
    return true;
  }

  private async start(url: string | URL | undefined): Promise<void> {
    try {
      const make = await workerFactory(url);
      for (let w = 0; w < this.workers.length; w++) {
        if (this.state === State.Off) return;
        this.workers[w] = make(
          (msg) => this.onMessage(w, msg),
          (reason) => this.shutDown(`worker ${w} ${reason}`),
        );
      }
      if (this.state === State.Starting) this.state = State.Running;
    } catch (e) {
      this.shutDown(`the workers could not start (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  private onMessage(w: number, msg: unknown): void {
    const m = msg as { type?: string; message?: string };
    if (m.type === "listening") {
      this.listening[w] = true;
      this.bind(w);
    } else if (m.type === "error") this.shutDown(`worker ${w} failed: ${m.message ?? "unknown error"}`);
  }

  /** Ends every worker; with a reason, the world falls back to one thread and says why once. */
  private shutDown(reason: string | null): void {
    if (this.state === State.Off) return;
    this.state = State.Off;
    publishJob(this.ctrl, Command.Stop, this.generation, 0, 0);
    for (let w = 0; w < this.workers.length; w++) {
      const worker = this.workers[w];
      this.workers[w] = null;
      if (worker !== null) worker.terminate();
    }
    if (reason !== null) {
      this.message = `Continuum: ${reason}; the world runs on one thread from now on (same results, no step lost).`;
      this.warn(this.message);
    }
  }
}

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

function sharedF64(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(n * 8));
}

/** The array itself if it lives in shared memory, else a copy in shared memory (same type and contents). */
function shared<T extends Float64Array | Int32Array | Uint8Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const copy = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
  copy.set(a as never);
  return copy;
}

type WorkerFactory = (onMessage: (msg: unknown) => void, onFailure: (reason: string) => void) => WorkerHandle;

/**
 * Makes workers of the worker script on this platform. The default script comes from ./workerUrl.ts, loaded only
 * then: `new Worker(new URL(..., import.meta.url))` there is what bundlers (Vite, webpack, Parcel) find and emit.
 */
async function workerFactory(url: string | URL | undefined): Promise<WorkerFactory> {
  const proc = (globalThis as { process?: { versions?: { node?: string }; execArgv?: string[] } }).process;
  if (typeof Worker === "undefined" && proc?.versions?.node !== undefined) {
    // A specifier in a variable: bundlers for the browser leave it alone.
    const spec = "node:worker_threads";
    const wt = (await import(/* @vite-ignore */ spec)) as typeof import("node:worker_threads");
    const script = url ?? (await import("./workerUrl")).defaultWorkerUrl();
    return (onMessage, onFailure) => {
      // A worker inherits the process's flags, and Node refuses to start a worker script under `--input-type`
      // (`node --input-type=module -e ...`); given explicitly, flags such as --expose-gc are refused too. So
      // such a process's workers get no flags, and others inherit theirs.
      const inputType = proc.execArgv?.some((a) => a.startsWith("--input-type")) === true;
      const worker = new wt.Worker(script, inputType ? { execArgv: [] } : {});
      // The pool must not keep a Node process alive.
      worker.unref();
      let ended = false;
      worker.on("message", onMessage);
      worker.on("error", (e: Error) => {
        ended = true;
        onFailure(`failed: ${e.message}`);
      });
      worker.on("exit", (code: number) => {
        ended = true;
        onFailure(`stopped (exit code ${code})`);
      });
      return {
        post: (m) => worker.postMessage(m),
        terminate: () => void worker.terminate(),
        running: () => !ended && worker.threadId !== -1,
        raw: worker,
      };
    };
  }
  const startDefault = url === undefined ? (await import("./workerUrl")).startDefaultWorker : null;
  return (onMessage, onFailure) => {
    const worker = startDefault !== null ? startDefault() : new Worker(url!, { type: "module" });
    let ended = false;
    worker.onmessage = (e) => onMessage(e.data);
    worker.onerror = (e) => {
      ended = true;
      onFailure(`failed: ${e.message || "the worker script did not load"}`);
    };
    worker.onmessageerror = () => onFailure("sent a message that could not be read");
    return {
      post: (m) => worker.postMessage(m),
      terminate: () => {
        ended = true;
        worker.terminate();
      },
      running: () => !ended,
      raw: worker,
    };
  };
}
