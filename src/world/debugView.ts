/**
 * A read-only view of what the last step predicted: its contacts (touching and speculative), every body's
 * velocity-expanded bounds, and for Continuous bodies the sweep's start and end poses and the time-of-impact
 * pose when one was found. For drawing (the playground's "Contacts & CCD" overlay) and for tests.
 *
 * Contacts and bounds are read after the step from state the step keeps anyway (the contact solver's
 * manifolds, the bodies' bounds). Sweeps and times of impact happen inside the step and leave no trace, so
 * while the view is {@link WorldDebugView.enabled} the world hands them to a {@link SweepRecorder} at the two
 * places they are found (the narrow phase's sweep, bepu's NarrowPhaseCCDContinuations; and the TOI pass,
 * Havok's TOI events). Disabled, the world pays one null check per sweep hit; enabled, recording writes into
 * preallocated typed arrays (they grow with the body count, never per step).
 */
import type { SweptMotion } from "../math/sweptTransform";
import { BodyFlag, type BodySet } from "../dynamics/bodySet";
import { HeaderField, ContactField, HEADER, CONTACT } from "../dynamics/contacts/manifoldLayout";
import { grown } from "../collections/growth";
import { Pose } from "../math/pose";
import { rotateParts } from "../math/quat";
import { ContinuousDetectionMode, MotionType } from "./descriptions";
import type { World } from "./world";
import type { StepRecorder } from "./stepScratch";

/** Numbers per contact written by {@link WorldDebugView.contacts}. */
export const DEBUG_CONTACT_STRIDE = 8;
/** Offsets in a contact record: world point (end of step), normal (from body A to body B), separation, impulse. */
export const DebugContact = { pointX: 0, normalX: 3, separation: 6, impulse: 7 } as const;

/** Numbers per body written by {@link WorldDebugView.bounds}. */
export const DEBUG_BOUNDS_STRIDE = 8;
/** Offsets in a bounds record: min x/y/z, max x/y/z, the body handle, {@link DebugBoundsFlag} bits. */
export const DebugBounds = { minX: 0, maxX: 3, handle: 6, flags: 7 } as const;
/** Bits of a bounds record's flags. */
export const DebugBoundsFlag = {
  /** Awake and not static: its bounds were expanded by its motion this step. */
  Moving: 1,
  /** In Continuous mode. */
  Continuous: 2,
  Static: 4,
} as const;

/** Numbers per Continuous body written by {@link WorldDebugView.sweeps}. */
export const DEBUG_SWEEP_STRIDE = 30;
/**
 * Offsets in a sweep record: the body handle; the time of impact as a fraction of the step (NaN when none was
 * found); {@link DebugSweepKind}; the start, end and time-of-impact ORIGIN poses (px, py, pz, qx, qy, qz, qw
 * each; the TOI pose equals the end pose when there was none); the shape's local bounds (min, max).
 */
export const DebugSweep = { handle: 0, toi: 1, kind: 2, start: 3, end: 10, toiPose: 17, localMin: 24, localMax: 27 } as const;
/** How a sweep record's time of impact was found. */
export const DebugSweepKind = {
  /** No impact: start and end are the step's start pose and the pose it ended at. */
  None: 0,
  /** The narrow phase's sweep of the body's predicted motion found an impact; contacts were made at that time. */
  Sweep: 1,
  /** The TOI pass found an impact the solve did not prevent and moved the body back to it. */
  Toi: 2,
} as const;

/** Record fields kept per recorded body (the start, end and TOI poses and the fraction). */
const REC = 22;

/**
 * Receives the sweeps and times of impact found inside a step (the world calls it only while a
 * {@link WorldDebugView} is enabled). Keyed by dense body index, checked against the handle when read.
 * @internal
 */
export class SweepRecorder implements StepRecorder {
  /** Step stamp per dense index: a record is this step's when it equals {@link stamp}. */
  private recStamp = new Int32Array(0);
  /** Per dense index: handle, fraction, kind, start pose, end pose, TOI pose. */
  private rec = new Float64Array(0);
  private stamp = 0;
  private readonly pose = new Pose();

  /** A new step: forgets the last step's records (and grows with the body count). */
  beginStep(bodyCount: number): void {
    this.stamp++;
    // The stamp has moved on: no record of an earlier step is kept.
    this.recStamp = grown(this.recStamp, Math.max(bodyCount, 16), 0);
    this.rec = grown(this.rec, this.recStamp.length * REC, 0);
  }

  /**
   * The narrow phase swept the pair (ia, ib) with velocity motions over `dt` and found an impact at `t`
   * seconds: recorded (when t > 0) for each Continuous dynamic body of the pair, the earliest impact per body
   * kept.
   */
  onSweepHit(b: BodySet, ia: number, ib: number, motionA: SweptMotion, motionB: SweptMotion, t: number, dt: number): void {
    if (!(t > 0)) return; // an impact at once: the pair's contacts are made at t0, as without a sweep
    if (isContinuousDynamic(b, ia)) this.recordMotion(b, ia, motionA, t, dt);
    if (isContinuousDynamic(b, ib)) this.recordMotion(b, ib, motionB, t, dt);
  }

  /**
   * The TOI pass is about to move body i back to the fraction `t` of its solved motion (pos0/rot0 to
   * pos/rot): the end pose is read now, before it is overwritten; the TOI pose is the one the body ends the
   * step at.
   */
  onToiClamp(b: BodySet, i: number, t: number): void {
    if (i >= this.recStamp.length) return;
    const o = i * REC;
    const r = this.rec;
    if (this.recStamp[i] === this.stamp && r[o + 2] === DebugSweepKind.Toi && r[o + 1] <= t) return;
    this.recStamp[i] = this.stamp;
    r[o] = b.handle[i];
    r[o + 1] = t;
    r[o + 2] = DebugSweepKind.Toi;
    writeOriginPose(b, i, b.pos0, b.rot0, r, o + 3);
    writeOriginPose(b, i, b.pos, b.rot, r, o + 10);
    // The TOI pose is where the world moves the body now, i.e. its pose after the step (read()).
  }

  /** Copies body i's record of this step into out[o..] (the sweep record's poses); false when there is none. */
  read(b: BodySet, i: number, out: Float64Array, o: number): boolean {
    if (i >= this.recStamp.length || this.recStamp[i] !== this.stamp) return false;
    const r = this.rec;
    const ro = i * REC;
    if (r[ro] !== b.handle[i]) return false;
    out[o + DebugSweep.toi] = r[ro + 1];
    out[o + DebugSweep.kind] = r[ro + 2];
    for (let k = 0; k < 14; k++) out[o + DebugSweep.start + k] = r[ro + 3 + k];
    if (r[ro + 2] === DebugSweepKind.Toi) writeOriginPose(b, i, b.pos, b.rot, out, o + DebugSweep.toiPose);
    else for (let k = 0; k < 7; k++) out[o + DebugSweep.toiPose + k] = r[ro + 17 + k];
    return true;
  }

  private recordMotion(b: BodySet, i: number, m: SweptMotion, t: number, dt: number): void {
    if (i >= this.recStamp.length || !(dt > 0)) return;
    const o = i * REC;
    const r = this.rec;
    const fraction = t / dt;
    // Keep the earliest impact of the step (a TOI clamp, found later in the step, replaces it only if earlier).
    if (this.recStamp[i] === this.stamp && r[o + 1] <= fraction) return;
    this.recStamp[i] = this.stamp;
    r[o] = b.handle[i];
    r[o + 1] = fraction;
    r[o + 2] = DebugSweepKind.Sweep;
    const p = this.pose;
    writePose(m.poseAt(0, p), r, o + 3);
    writePose(m.poseAt(dt, p), r, o + 10);
    writePose(m.poseAt(t, p), r, o + 17);
  }
}

/**
 * The debug view of a world. Reading (contacts, bounds, sweeps) allocates nothing and never changes the
 * world; the caller passes the output arrays and gets the number of records written (at most what fits).
 */
export class WorldDebugView {
  private readonly pose = new Pose();
  private readonly box = new Float64Array(6);
  private readonly recorder = new SweepRecorder();

  constructor(private readonly world: World) {}

  /**
   * Whether sweeps and times of impact are recorded during steps (off by default: nothing is recorded and
   * the step does not call out). Contacts and bounds can be read either way.
   */
  get enabled(): boolean {
    return this.world.scratch.debugRecorder === this.recorder;
  }
  set enabled(on: boolean) {
    this.world.scratch.debugRecorder = on ? this.recorder : null;
  }

  /**
   * The last step's contacts, {@link DEBUG_CONTACT_STRIDE} numbers each (see {@link DebugContact}): the point
   * where body A's surface is at the end of the step, the manifold normal (A to B), the separation at the end
   * of the step (negative: penetration; above a few millimetres: a speculative contact that did not close)
   * and the normal impulse it carried. Returns the number written (at most out.length / stride). Bodies
   * that slept through the step have no contacts.
   */
  contacts(out: Float64Array): number {
    const solver = this.world.debugSolver;
    const b = this.world.bodies;
    const hd = solver.header,
      c = solver.contacts;
    const max = Math.floor(out.length / DEBUG_CONTACT_STRIDE);
    let n = 0;
    for (let m = 0; m < solver.count && n < max; m++) {
      const h = m * HEADER;
      const a = b.indexOf(hd[h + HeaderField.handleA]);
      const count = hd[h + HeaderField.count];
      // The point was stored at t0; it moves with body A over the step (its rotation is ignored: small).
      let dx = 0,
        dy = 0,
        dz = 0;
      if (a >= 0 && b.motionType[a] !== MotionType.Static) {
        dx = b.pos[a * 3] - b.pos0[a * 3];
        dy = b.pos[a * 3 + 1] - b.pos0[a * 3 + 1];
        dz = b.pos[a * 3 + 2] - b.pos0[a * 3 + 2];
      }
      for (let k = 0; k < count && n < max; k++) {
        const co = (m * 4 + k) * CONTACT;
        const o = n * DEBUG_CONTACT_STRIDE;
        out[o] = c[co + ContactField.pointX] + dx;
        out[o + 1] = c[co + ContactField.pointX + 1] + dy;
        out[o + 2] = c[co + ContactField.pointX + 2] + dz;
        out[o + 3] = hd[h + HeaderField.normalX];
        out[o + 4] = hd[h + HeaderField.normalX + 1];
        out[o + 5] = hd[h + HeaderField.normalX + 2];
        out[o + 6] = c[co + ContactField.separation];
        out[o + 7] = c[co + ContactField.totalImpulse];
        n++;
      }
    }
    return n;
  }

  /**
   * Every body's broad-phase bounds, {@link DEBUG_BOUNDS_STRIDE} numbers each (see {@link DebugBounds}):
   * for awake bodies the box the last step expanded by their motion (clamped to the speculative margin in
   * Discrete mode, the whole motion otherwise); for static and sleeping ones their box at rest. Returns
   * the number written.
   */
  bounds(out: Float64Array): number {
    const b = this.world.bodies;
    const max = Math.floor(out.length / DEBUG_BOUNDS_STRIDE);
    let n = 0;
    for (let i = 0; i < b.count && n < max; i++) {
      if (b.shape[i] === null) continue;
      const o = n * DEBUG_BOUNDS_STRIDE;
      for (let k = 0; k < 6; k++) out[o + k] = b.aabb[i * 6 + k];
      out[o + 6] = b.handle[i];
      out[o + 7] =
        (isAwakeMover(b, i) ? DebugBoundsFlag.Moving : 0) |
        (b.continuity[i] === ContinuousDetectionMode.Continuous ? DebugBoundsFlag.Continuous : 0) |
        (b.motionType[i] === MotionType.Static ? DebugBoundsFlag.Static : 0);
      n++;
    }
    return n;
  }

  /**
   * One record per awake dynamic Continuous body, {@link DEBUG_SWEEP_STRIDE} numbers each (see
   * {@link DebugSweep}): the pose it started the last step at, the end pose of the motion that was swept
   * (the predicted motion when a sweep found an impact, else the pose it ended at), the time of impact and
   * the pose there. Times of impact are only known for steps taken while {@link enabled}. Returns the
   * number written.
   */
  sweeps(out: Float64Array): number {
    const b = this.world.bodies;
    const max = Math.floor(out.length / DEBUG_SWEEP_STRIDE);
    const p = this.pose;
    let n = 0;
    for (let i = 0; i < b.count && n < max; i++) {
      if (!isContinuousDynamic(b, i) || !isAwakeMover(b, i)) continue;
      const shape = b.shape[i];
      if (shape === null) continue;
      const o = n * DEBUG_SWEEP_STRIDE;
      out[o] = b.handle[i];
      if (!this.recorder.read(b, i, out, o)) {
        out[o + DebugSweep.toi] = NaN;
        out[o + DebugSweep.kind] = DebugSweepKind.None;
        writeOriginPose(b, i, b.pos0, b.rot0, out, o + DebugSweep.start);
        writeOriginPose(b, i, b.pos, b.rot, out, o + DebugSweep.end);
        for (let k = 0; k < 7; k++) out[o + DebugSweep.toiPose + k] = out[o + DebugSweep.end + k];
      }
      p.set(0, 0, 0, 0, 0, 0, 1);
      shape.computeAabb(p, this.box, 0);
      for (let k = 0; k < 6; k++) out[o + DebugSweep.localMin + k] = this.box[k];
      n++;
    }
    return n;
  }
}

function isContinuousDynamic(b: BodySet, i: number): boolean {
  return b.motionType[i] === MotionType.Dynamic && b.continuity[i] === ContinuousDetectionMode.Continuous;
}

function isAwakeMover(b: BodySet, i: number): boolean {
  return b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0;
}

function writePose(p: Pose, out: Float64Array, o: number): void {
  out[o] = p.px;
  out[o + 1] = p.py;
  out[o + 2] = p.pz;
  out[o + 3] = p.qx;
  out[o + 4] = p.qy;
  out[o + 5] = p.qz;
  out[o + 6] = p.qw;
}

/** Body i's origin pose from a centre-of-mass position and orientation array (pos/rot or pos0/rot0). */
function writeOriginPose(b: BodySet, i: number, pos: Float64Array, rot: Float64Array, out: Float64Array, o: number): void {
  const qx = rot[i * 4],
    qy = rot[i * 4 + 1],
    qz = rot[i * 4 + 2],
    qw = rot[i * 4 + 3];
  // The origin is the centre of mass minus the local centre of mass rotated by q.
  rotateParts(qx, qy, qz, qw, b.localCom[i * 3], b.localCom[i * 3 + 1], b.localCom[i * 3 + 2], out, o);
  out[o] = pos[i * 3] - out[o];
  out[o + 1] = pos[i * 3 + 1] - out[o + 1];
  out[o + 2] = pos[i * 3 + 2] - out[o + 2];
  out[o + 3] = qx;
  out[o + 4] = qy;
  out[o + 5] = qz;
  out[o + 6] = qw;
}
