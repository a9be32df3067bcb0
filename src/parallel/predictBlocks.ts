/**
 * The parallel stage: the motion part of the step's prediction (src/dynamics/integrator.ts predictMotion) over
 * fixed blocks of the active bodies. Block k is the active bodies [k * PREDICT_BLOCK, (k + 1) * PREDICT_BLOCK):
 * the cut depends on the body count only, never on the thread count, and each body's result depends on its own
 * state only, so any thread may run any block and the result is bit for bit the serial one.
 *
 * A block can be run again: it writes the t0 pose and world inertia (functions of state it does not write) and
 * the new velocities into scratch columns, never over its inputs. The main thread copies the velocities back
 * once every block is done ({@link commitPredictMotion}). So when a worker dies holding a block, the main thread
 * runs that block again and nothing is half-applied.
 */
import { BodySet } from "../dynamics/bodySet";
import { predictMotion } from "../dynamics/integrator";

/** Active bodies per block. */
export const PREDICT_BLOCK = 64;

/** The arrays a block reads and writes, as the main thread shares them with the workers. */
export interface PredictArrays {
  pos: Float64Array;
  rot: Float64Array;
  vel: Float64Array;
  angVel: Float64Array;
  pos0: Float64Array;
  rot0: Float64Array;
  invInertiaLocal: Float64Array;
  inertiaLocal: Float64Array;
  invInertiaWorld: Float64Array;
  motionType: Uint8Array;
  /** The new velocities, by body index (3 per body). */
  scratchVel: Float64Array;
  scratchAngVel: Float64Array;
  /** Dense indices of the active bodies, in the world's order. */
  ids: Int32Array;
  /** The job sequence number that finished each block (the main thread reruns the others on a fall-back). */
  stamps: Int32Array;
  /** dt, gravity, speed limits (StepScratch.stepScalars). */
  step: Float64Array;
}

/** The names of the body columns a block touches (shared over SharedArrayBuffer when a pool runs). */
export const PREDICT_BODY_FIELDS = ["pos", "rot", "vel", "angVel", "pos0", "rot0", "invInertiaLocal", "inertiaLocal", "invInertiaWorld", "motionType"] as const;

/** Runs blocks of the stage over one binding of the arrays (each thread holds one). */
export class PredictBlocks {
  /** A body store whose columns are the shared ones, except the velocities: the scratch columns. */
  private readonly view = new BodySet(0);
  private a: PredictArrays | null = null;

  bind(a: PredictArrays): void {
    // BodySet declares its columns over ArrayBuffer; over a SharedArrayBuffer they behave the same.
    const v = this.view as unknown as Record<string, Float64Array | Uint8Array>;
    v.pos = a.pos;
    v.rot = a.rot;
    v.pos0 = a.pos0;
    v.rot0 = a.rot0;
    v.invInertiaLocal = a.invInertiaLocal;
    v.inertiaLocal = a.inertiaLocal;
    v.invInertiaWorld = a.invInertiaWorld;
    v.motionType = a.motionType;
    v.vel = a.scratchVel;
    v.angVel = a.scratchAngVel;
    this.a = a;
  }

  /** Runs block k of a job of `items` active bodies. */
  run(k: number, items: number): void {
    const a = this.a!;
    const ids = a.ids;
    const end = Math.min(items, (k + 1) * PREDICT_BLOCK);
    for (let n = k * PREDICT_BLOCK; n < end; n++) {
      const i = ids[n];
      copyVelocities(a.vel, a.angVel, a.scratchVel, a.scratchAngVel, i * 3);
      predictMotion(this.view, i, a.step);
    }
  }
}

/** Copies the new velocities of the job's `items` active bodies back (main thread, every block done). */
export function commitPredictMotion(a: PredictArrays, items: number): void {
  const ids = a.ids;
  for (let n = 0; n < items; n++) copyVelocities(a.scratchVel, a.scratchAngVel, a.vel, a.angVel, ids[n] * 3);
}

/** One body's linear and angular velocity (3 numbers each at offset i3) from (v, w) to (toV, toW). */
function copyVelocities(v: Float64Array, w: Float64Array, toV: Float64Array, toW: Float64Array, i3: number): void {
  toV[i3] = v[i3];
  toV[i3 + 1] = v[i3 + 1];
  toV[i3 + 2] = v[i3 + 2];
  toW[i3] = w[i3];
  toW[i3 + 1] = w[i3 + 1];
  toW[i3 + 2] = w[i3 + 2];
}

/** Blocks of a job of `items` active bodies. */
export function predictBlockCount(items: number): number {
  return Math.ceil(items / PREDICT_BLOCK);
}
