/**
 * The contact passes over threads (Box2D v3's coloured solver stages, solver.c): each pass of a substep (warm start,
 * biased solve, relax) visits the constraint graph's colours in order (src/dynamics/contacts/constraintGraph.ts),
 * and a large colour's manifolds are cut into blocks of {@link CONTACT_BLOCK} slots that any thread claims. A
 * colour's manifolds share no dynamic body, so its blocks write disjoint velocities, and who ran which block changes
 * nothing: the result is the one-thread result, bit for bit. The calling thread solves a colour's other slots (kind
 * SLOT_CALLER: shock propagation, rolling resistance, jointed bodies) while the workers run blocks, then joins them; the next
 * colour starts when every block is done (the pool's barrier).
 *
 * A worker runs the same loops as the calling thread (ContactConstraints.runRange) on a replica of the solver whose
 * arrays are the shared ones; the replica's pins, shock tables and joint set stay empty, as it only ever sees slots
 * of kind SLOT_ANY_THREAD, which need none of them.
 *
 * Unlike the prediction's and the narrow phase's blocks, a contact block is not rerun safely: it changes the
 * velocities it reads (Gauss-Seidel). The pool only publishes a block job to workers that are running, and a block
 * a failed worker left unfinished runs again here (one more visit of its manifolds; see WorkerPool.contactPass).
 */
import { BodySet } from "../dynamics/bodySet";
import { ContactCache } from "../dynamics/contacts/contactCache";
import { ContactConstraints } from "../dynamics/contacts/contactConstraints";
import { SLOT_ANY_THREAD } from "../dynamics/contacts/constraintLayout";

/** Manifolds per block of a colour solved over threads (a worker claims a block at a time). */
export const CONTACT_BLOCK = 32;
/** Fewest manifolds of a colour solved over threads: for fewer, a job's publication and barrier cost more than they save. */
export const MIN_THREADED_COLOUR = 4 * CONTACT_BLOCK;

/** The body columns a contact pass reads or writes (shared over SharedArrayBuffer when a pool runs them). */
export const CONTACT_BODY_FIELDS = ["pos", "rot", "vel", "angVel", "invMass", "invInertiaWorld"] as const;
/**
 * The solver's per-step constraint arrays (ConstraintArrays) the passes read or write on any thread. Not the slots'
 * cache indices (`manifold`, the constraint graph's own array, replaced every step): the passes do not read them.
 */
export const CONTACT_SOLVER_FIELDS = ["mf", "pt", "jn", "fm", "gm", "rf", "pair", "kind"] as const;

/** Integer words of a contact job (ContactArrays.jobInt). */
export const JOB_PASS = 0,
  JOB_FROM = 1,
  JOB_TO = 2,
  JOB_FLIP = 3;
/** Doubles of a contact job (ContactArrays.jobF): the substep and the settings the passes read. */
export const JOB_H = 0,
  JOB_OVERLAP_DEPTH = 1,
  JOB_RESTING_SLIP = 2,
  JOB_STICK_SPEED = 3;

/** The arrays the contact blocks read and write, as the main thread shares them with the workers. */
export interface ContactArrays {
  pos: Float64Array;
  rot: Float64Array;
  vel: Float64Array;
  angVel: Float64Array;
  invMass: Float64Array;
  invInertiaWorld: Float64Array;
  /** The solver's push-out velocities (ContactConstraints.pushVel, pushAngVel). */
  pushVel: Float64Array;
  pushAngVel: Float64Array;
  mf: Float64Array;
  pt: Float64Array;
  jn: Float64Array;
  fm: Float64Array;
  gm: Float64Array;
  rf: Float64Array;
  pair: Int32Array;
  kind: Uint8Array;
  /** The current job: JOB_PASS, JOB_FROM, JOB_TO, JOB_FLIP. */
  jobInt: Int32Array;
  /** The current job: JOB_H, JOB_OVERLAP_DEPTH, JOB_RESTING_SLIP, JOB_STICK_SPEED. */
  jobF: Float64Array;
  /** The job sequence number that finished each block. */
  stamps: Int32Array;
  /** Each block's claim word (barrier.ts HomeClaims): ~seq while open, seq once a thread took it. */
  claims: Int32Array;
}

/** Blocks of a colour of `slots` manifolds. */
export function contactBlockCount(slots: number): number {
  return Math.ceil(slots / CONTACT_BLOCK);
}

/** Runs contact blocks on a worker, over one binding of the shared arrays. */
export class ContactBlocks {
  /** A body store whose columns are the shared ones. */
  private readonly view = new BodySet(0);
  /** The solver replica: its constraint arrays and push-out velocities are the shared ones. */
  private readonly solver = new ContactConstraints(new ContactCache());
  private a: ContactArrays | null = null;

  bind(a: ContactArrays): void {
    // BodySet and ConstraintArrays declare their columns over ArrayBuffer; over a SharedArrayBuffer they behave the same.
    const v = this.view as unknown as Record<string, unknown>;
    for (const name of CONTACT_BODY_FIELDS) v[name] = a[name];
    const k4 = this.solver.arrays as unknown as Record<string, unknown>;
    for (const name of CONTACT_SOLVER_FIELDS) k4[name] = a[name];
    const solver = this.solver as unknown as Record<string, unknown>;
    solver.pushVel = a.pushVel;
    solver.pushAngVel = a.pushAngVel;
    this.a = a;
  }

  /** Runs block k of the current job (its pass and colour in jobInt, its substep and settings in jobF). */
  run(k: number): void {
    const a = this.a!;
    const ji = a.jobInt,
      jf = a.jobF;
    const solver = this.solver,
      settings = solver.settings;
    solver.passH = jf[JOB_H];
    solver.substep = ji[JOB_FLIP];
    settings.overlapDepth = jf[JOB_OVERLAP_DEPTH];
    settings.restingSlip = jf[JOB_RESTING_SLIP];
    settings.stickSpeed = jf[JOB_STICK_SPEED];
    const from = ji[JOB_FROM] + k * CONTACT_BLOCK;
    const to = Math.min(ji[JOB_TO], from + CONTACT_BLOCK);
    solver.runRange(ji[JOB_PASS], this.view, from, to, 1 << SLOT_ANY_THREAD);
  }
}
