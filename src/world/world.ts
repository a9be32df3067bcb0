/**
 * The physics world: the public API (bodies, joints, queries, snapshots) over {@link WorldState}, the step's
 * state (worldState.ts). `step(dt)` reads top to bottom as the pipeline of docs/design.md, its stages numbered
 * in the order they run: prestep, predict, broad phase, narrow phase, solve, time of impact, islands and sleep,
 * finish; each stage is a function of the state in ./stages/ (predict, contacts, partnerPushStage, pairSweep,
 * solve, continuous, sleep, eventsStage).
 */
import { rotateParts, type QuatLike } from "../math/quat";
import { isFiniteVec3, type Vec3Like } from "../math/vec3";
import { fmtVecArg, requireQuat, requireVec } from "../math/argCheck";
import { requireFinite, requireNonNegative } from "../shapes/validate";
import { WorldQueries } from "../queries/worldQueries";
import { RayResult, RayVisitor, type RayFilter } from "../queries/worldRaycast";
import { Shape } from "../shapes/shape";
import { BodyFlag, SlotCount } from "../dynamics/bodySet";
import type { ContactCache } from "../dynamics/contacts/contactCache";
import { TOUCH_TOLERANCE } from "../dynamics/contacts/manifoldLayout";
import { DEFAULT_SOLVER_SETTINGS } from "../dynamics/solverSettings";
import { clampSpeed, updateWorldInertia } from "../dynamics/integrator";
import type { JointDescription } from "../dynamics/joints/joint6dof";
import { computeMassData, MassData, principalAxes } from "../dynamics/massProperties";
import {
  type BodyDescription,
  type ContinuousDetection,
  ContinuousDetectionMode,
  type MassProperties,
  MotionType,
  type SpringSettings,
  type SurfaceMaterial,
  surfaceMaterial,
} from "./descriptions";
import { ChildSurfaces, toChildSurfaces, withShapeTriggers, type ChildSurfaceDescription } from "./childSurfaces";
import type { ByteReader, ByteWriter, ShapeTable } from "./stateCodec";
import { exactAtan2 } from "../math/exactMath";
import { checkThreads, startThreads, stopThreads } from "../parallel/threads";
import type { WorkerPool } from "../parallel/workerPool";
import { StepStats, TREE_NONE, WorldState, type ResolvedSettings } from "./worldState";
import { buildActiveList, predict } from "./stages/predict";
import { broadPhase, narrowPhase } from "./stages/contacts";
import { solve, finishStep } from "./stages/solve";
import { continuousPass, guardNonFinite } from "./stages/continuous";
import { updateSleep, wakeJointedSleepers } from "./stages/sleep";
import { buildEvents } from "./stages/eventsStage";

export { StepStats, RayResult, type RayFilter };

/** Default {@link WorldSettings.substeps}. */
const DEFAULT_SUBSTEPS = DEFAULT_SOLVER_SETTINGS.substeps;
/**
 * Default {@link WorldSettings.contactSubsteps}: the fewest with which every contact test passes its tolerance
 * (bench/RESULTS.md, "Measurements behind constants").
 */
const DEFAULT_CONTACT_SUBSTEPS = DEFAULT_SOLVER_SETTINGS.contactSubsteps;

/** World-wide settings. */
export interface WorldSettings {
  /** Default (0, -9.81, 0). */
  gravity?: Vec3Like;
  /**
   * Solver substeps of a step of a world that has joints. Default 8: with the 60 Hz contact spring that is 1/8 of
   * the substep rate (Box2D v3 keeps contact hertz at most 1/4), stiff enough that a 100:1 mass ratio stack sags
   * under 1 cm; the joint solver's stiffness is capped at a quarter of the substep rate.
   */
  substeps?: number;
  /**
   * Solver substeps of a step of a world without joints (contacts only). Default `substeps` when that is given,
   * else 6: fewer substeps cost less per step at the same stiffness of stacks (bench/RESULTS.md, "Measurements
   * behind constants").
   */
  contactSubsteps?: number;
  /** Contact spring. Default 60 Hz, damping ratio 10 (Box2D v3 contact softness, stiffened for heavy-on-light stacks). */
  contactSpring?: SpringSettings;
  /** Largest speed at which penetration is pushed out (m/s). Default 3. */
  maximumRecoveryVelocity?: number;
  /** Approach speeds below this do not bounce (m/s). Default 0.5. */
  restitutionThreshold?: number;
  /** Whether bodies fall asleep. Default true. */
  sleepingEnabled?: boolean;
  /** Bodies slower than this (m/s, including rotation at their radius) count as resting. Default 0.05. */
  sleepThreshold?: number;
  /** How long an island rests before it sleeps (s). Default 0.5. */
  timeToSleep?: number;
  /** Speed limits. Default 200 m/s and 100 rad/s (Havok's). */
  maxLinearSpeed?: number;
  maxAngularSpeed?: number;
  /**
   * Threads the step runs on, the calling thread included. Default 1: the single-threaded engine, no workers.
   * With more, workers start in the background (Node `worker_threads`, browsers module Web Workers; a browser page
   * must be cross-origin isolated for SharedArrayBuffer) and take part in the step once ready; the result is bit
   * for bit the same at any thread count. {@link World.threads} says how many run. See README "Threads".
   */
  threads?: number;
  /**
   * The worker script, dist/continuum.worker.mjs. Default: beside the module that holds the engine (what
   * bundlers resolve through `new URL(..., import.meta.url)`); give it for the UMD build or a custom layout.
   */
  workerUrl?: string | URL;
}

/**
 * A saved world state (see {@link World.snapshot}): the state as bytes, and the shapes those bytes refer to
 * by index (shapes are immutable and shared, never copied).
 */
export class WorldSnapshot {
  constructor(
    /** The encoded state (src/world/stateCodec.ts). */
    readonly bytes: ArrayBuffer,
    /** The shapes the bytes refer to, by index. */
    readonly shapes: readonly Shape[],
  ) {}
}

/**
 * What {@link World}'s snapshot methods run. The snapshot entry (src/snapshot.ts, `continuum-physics/snapshot`)
 * installs it when imported, so that a world that never takes a snapshot does not carry the byte codec.
 */
export interface StateCodec {
  snapshot(world: World): WorldSnapshot;
  restore(world: World, snapshot: WorldSnapshot): void;
  encodeState(world: World, shapes: ShapeTable, w?: ByteWriter): ByteWriter;
  decodeState(world: World, r: ByteReader, shapes: ShapeTable): void;
}

let stateCodec: StateCodec | null = null;

/** @internal Called once by src/snapshot.ts. */
export function installStateCodec(codec: StateCodec): void {
  stateCodec = codec;
}

/** The installed codec, or an Error naming `fn` and the import that installs it. */
function codecFor(fn: string, world: World): StateCodec {
  if (stateCodec === null) throw new Error(`${fn}: snapshots need \`import "continuum-physics/snapshot"\` (src/snapshot.ts)`);
  if (world.scratch.stepping) throw new Error(`${fn}: not allowed while the world is stepping`);
  return stateCodec;
}

/** The physics world: the public API over {@link WorldState}; `step()` runs the stages of ./stages/ in order. */
export class World extends WorldState {
  /** Point proximity, shape proximity and shape casts over the world (src/queries). */
  get queries(): WorldQueries {
    return this.scratch.queries;
  }
  /** @internal The contact cache's manifolds, read (never written) by WorldDebugView. */
  get debugSolver(): ContactCache {
    return this.contactCache;
  }

  constructor(settings: WorldSettings = {}) {
    const threads = settings.threads ?? 1;
    checkThreads(threads);
    super(resolveSettings(settings));
    // The pool's module loads in the background (src/parallel/threads.ts); the world steps on one thread meanwhile.
    if (threads > 1) startThreads(this.scratch, threads, settings.workerUrl);
  }

  /**
   * Threads the step runs on now: 1 with the default setting, until the pool's module loaded and its workers are
   * ready, and after a fall-back.
   */
  get threads(): number {
    const pool = this.scratch.pool;
    return pool === null ? 1 : pool.threads;
  }

  /** Why the world runs on fewer threads than its `threads` setting asked for (null when it does not, or asked for 1). */
  get threadsMessage(): string | null {
    const pool = this.scratch.pool;
    return pool !== null && pool.message !== null ? pool.message : this.scratch.threadsMessage;
  }

  /** @internal The worker pool once made (tests kill its workers). */
  get workerPool(): WorkerPool | null {
    return this.scratch.pool;
  }

  /** Stops the world's worker threads, if any (or keeps them from starting); the world keeps working on one thread. */
  stopThreads(): void {
    stopThreads(this.scratch);
  }

  // ---------------------------------------------------------------- joints

  /**
   * Creates a joint between two bodies (or a body and the world when `bodyB` is null) and returns its
   * handle. Unless `collisionsEnabled`, the two bodies stop colliding with each other.
   */
  createJoint(desc: JointDescription): number {
    if (!desc || typeof desc !== "object") throw new TypeError(`createJoint: desc must be a JointDescription, got ${String(desc)}`);
    this.index(desc.bodyA, "createJoint (bodyA)");
    if (desc.bodyB !== null && desc.bodyB !== undefined) this.index(desc.bodyB, "createJoint (bodyB)");
    return this.joints.create(desc);
  }

  /** Removes a joint; its bodies wake and collide again. */
  removeJoint(handle: number): void {
    this.joints.remove(handle);
  }

  // ---------------------------------------------------------------- world settings

  /** Sets gravity (m/s^2). */
  setGravity(g: Vec3Like): void {
    requireVec("gravity", g);
    this.gx = g.x;
    this.gy = g.y;
    this.gz = g.z;
  }

  /** Writes gravity into out. */
  getGravity<T extends Vec3Like>(out: T): T {
    out.x = this.gx;
    out.y = this.gy;
    out.z = this.gz;
    return out;
  }

  /** Sets the speed limits applied to every dynamic body (m/s, rad/s). */
  setVelocityLimits(maxLinear: number, maxAngular: number): void {
    if (!(maxLinear > 0)) throw new RangeError(`maxLinear must be > 0, got ${String(maxLinear)}`);
    if (!(maxAngular > 0)) throw new RangeError(`maxAngular must be > 0, got ${String(maxAngular)}`);
    this.maxLinearSpeed = maxLinear;
    this.maxAngularSpeed = maxAngular;
  }

  /** Number of bodies in the world. */
  get bodyCount(): number {
    return this.bodies.count;
  }

  // ---------------------------------------------------------------- bodies

  /** Creates a body and returns its handle. */
  createBody(desc: BodyDescription = {}): number {
    const motionType = desc.motionType ?? MotionType.Dynamic;
    if (motionType !== MotionType.Static && motionType !== MotionType.Kinematic && motionType !== MotionType.Dynamic) {
      throw new RangeError(`motionType must be MotionType.Static, Kinematic or Dynamic, got ${String(motionType)}`);
    }
    const p = desc.position ?? { x: 0, y: 0, z: 0 };
    const q = desc.orientation ?? { x: 0, y: 0, z: 0, w: 1 };
    requireVec("position", p);
    requireQuat("orientation", q);
    const v = desc.linearVelocity ?? { x: 0, y: 0, z: 0 };
    const w = desc.angularVelocity ?? { x: 0, y: 0, z: 0 };
    requireVec("linearVelocity", v);
    requireVec("angularVelocity", w);
    const col = desc.collidable ?? { shape: null };
    if (col.shape !== null && col.shape !== undefined && !(col.shape instanceof Shape)) {
      throw new TypeError(`collidable.shape must be a Shape or null, got ${String(col.shape)}`);
    }
    const density = desc.density ?? 1000;
    requireNonNegative("density", density);
    const cont = col.continuity ?? { mode: ContinuousDetectionMode.Passive, minimumSweepTimestep: 0, sweepConvergenceThreshold: 0 };
    validateContinuity(cont);
    const mMin = col.minimumSpeculativeMargin ?? 0;
    const mMax = col.maximumSpeculativeMargin ?? Infinity;
    validateMargins(mMin, mMax);
    const material = validateMaterial(surfaceMaterial(col.material ?? {}));
    const linDamp = desc.linearDamping ?? 0,
      angDamp = desc.angularDamping ?? 0,
      gf = desc.gravityFactor ?? 1;
    requireNonNegative("linearDamping", linDamp);
    requireNonNegative("angularDamping", angDamp);
    requireFinite("gravityFactor", gf);
    if (desc.massProperties) validateMassOverride(desc.massProperties);

    const b = this.bodies;
    const i = b.allocate();
    const ql = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    b.rot[i * 4] = q.x / ql;
    b.rot[i * 4 + 1] = q.y / ql;
    b.rot[i * 4 + 2] = q.z / ql;
    b.rot[i * 4 + 3] = q.w / ql;
    b.motionType[i] = motionType;
    b.shape[i] = col.shape ?? null;
    b.material[i] = material;
    b.density[i] = density;
    b.massOverride[i] = desc.massProperties ? { ...desc.massProperties } : null;
    b.continuity[i] = cont.mode;
    b.sweepMinStep[i] = cont.minimumSweepTimestep;
    b.sweepConvergence[i] = cont.sweepConvergenceThreshold;
    b.marginMin[i] = mMin;
    b.marginMax[i] = mMax;
    b.membership[i] = (col.membership ?? -1) | 0;
    b.collideWith[i] = (col.collideWith ?? -1) | 0;
    b.flags[i] = (col.isTrigger ? BodyFlag.Trigger : 0) | (desc.sleepingAllowed === false ? 0 : BodyFlag.SleepingAllowed);
    this.storeChildSurfaces(i, null);
    b.linDamp[i] = linDamp;
    b.angDamp[i] = angDamp;
    b.gravityFactor[i] = gf;
    b.island[i] = -1;
    b.tree[i] = TREE_NONE;
    b.proxy[i] = -1;
    b.sleepTime[i] = 0;
    b.force.fill(0, i * 3, i * 3 + 3);
    b.torque.fill(0, i * 3, i * 3 + 3);
    this.applyMass(i);
    // Position is of the body origin; the store keeps the centre of mass.
    this.setOriginPosition(i, p.x, p.y, p.z);
    b.pos0.set(b.pos.subarray(i * 3, i * 3 + 3), i * 3);
    b.rot0.set(b.rot.subarray(i * 4, i * 4 + 4), i * 4);
    if (motionType !== MotionType.Static) {
      b.vel[i * 3] = v.x;
      b.vel[i * 3 + 1] = v.y;
      b.vel[i * 3 + 2] = v.z;
      b.angVel[i * 3] = w.x;
      b.angVel[i * 3 + 1] = w.y;
      b.angVel[i * 3 + 2] = w.z;
    } else {
      b.vel.fill(0, i * 3, i * 3 + 3);
      b.angVel.fill(0, i * 3, i * 3 + 3);
    }
    updateWorldInertia(b, i);
    if (desc.startAsleep && motionType !== MotionType.Static) {
      b.flags[i] |= BodyFlag.Sleeping;
      b.island[i] = this.newIsland([b.handle[i]]);
    }
    this.updateProxy(i);
    return b.handle[i];
  }

  /** Removes a body. Its handle becomes stale; events about it are not reported. */
  removeBody(handle: number): void {
    const i = this.index(handle, "removeBody");
    const b = this.bodies;
    this.joints.onBodyRemoved(handle);
    this.scratch.childSurfaceSlots[handle % SlotCount] = null;
    this.removeProxy(i);
    const isl = b.island[i];
    if (isl >= 0) {
      const list = this.sleepingIslands[isl];
      if (list) {
        const k = list.indexOf(handle);
        if (k >= 0) list.splice(k, 1);
        if (list.length === 0) this.releaseIsland(isl);
      }
    }
    const moved = b.release(i);
    if (moved >= 0) {
      // The moved body's proxy keeps its slot as user data; nothing else refers to dense indices
      // between steps.
    }
  }

  /** True while the handle names a body in this world. */
  isAlive(handle: number): boolean {
    return this.bodies.indexOf(handle) >= 0;
  }

  /** Handles of every body, in storage order. */
  getBodyHandles(out: number[] = []): number[] {
    out.length = 0;
    for (let i = 0; i < this.bodies.count; i++) out.push(this.bodies.handle[i]);
    return out;
  }

  getMotionType(handle: number): MotionType {
    return this.bodies.motionType[this.index(handle, "getMotionType")] as MotionType;
  }

  /** Changes the motion type; a body that becomes static stops, one that stops being static wakes. */
  setMotionType(handle: number, type: MotionType): void {
    const i = this.index(handle, "setMotionType");
    if (type !== MotionType.Static && type !== MotionType.Kinematic && type !== MotionType.Dynamic) {
      throw new RangeError(`setMotionType: type must be MotionType.Static, Kinematic or Dynamic, got ${String(type)}`);
    }
    const b = this.bodies;
    if (b.motionType[i] === type) return;
    this.wakeIndex(i);
    b.motionType[i] = type;
    // A static body that becomes dynamic stops resting without waking: its resting pairs' events are re-examined.
    this.restingEpoch++;
    if (type === MotionType.Static) {
      b.vel.fill(0, i * 3, i * 3 + 3);
      b.angVel.fill(0, i * 3, i * 3 + 3);
    }
    this.applyMass(i);
    updateWorldInertia(b, i);
    this.removeProxy(i);
    this.updateProxy(i);
  }

  /** Writes the position of the body's origin (the frame its shape is in). */
  getPosition<T extends Vec3Like>(handle: number, out: T): T {
    this.index(handle, "getPosition");
    this.getOriginPose(handle, pose7, 0);
    out.x = pose7[0];
    out.y = pose7[1];
    out.z = pose7[2];
    return out;
  }

  /**
   * Writes the pose of the body's origin (the frame its shape is in) as seven numbers at `out[o..o+6]`:
   * position x, y, z, then orientation x, y, z, w. One handle lookup and no objects: the path a renderer's
   * per-step sync takes for every body.
   */
  getOriginPose(handle: number, out: Float64Array, o: number): void {
    const i = this.index(handle, "getOriginPose");
    const b = this.bodies;
    const q = b.rot,
      c = b.localCom,
      p = b.pos;
    const qx = q[i * 4],
      qy = q[i * 4 + 1],
      qz = q[i * 4 + 2],
      qw = q[i * 4 + 3];
    // origin = centre of mass - R * localCom
    rotateParts(qx, qy, qz, qw, c[i * 3], c[i * 3 + 1], c[i * 3 + 2], tmp3, 0);
    out[o] = p[i * 3] - tmp3[0];
    out[o + 1] = p[i * 3 + 1] - tmp3[1];
    out[o + 2] = p[i * 3 + 2] - tmp3[2];
    out[o + 3] = qx;
    out[o + 4] = qy;
    out[o + 5] = qz;
    out[o + 6] = qw;
  }

  /** Writes the body's orientation. */
  getOrientation<T extends QuatLike>(handle: number, out: T): T {
    const i = this.index(handle, "getOrientation");
    const q = this.bodies.rot;
    out.x = q[i * 4];
    out.y = q[i * 4 + 1];
    out.z = q[i * 4 + 2];
    out.w = q[i * 4 + 3];
    return out;
  }

  /** Writes the world position of the centre of mass. */
  getCenterOfMass<T extends Vec3Like>(handle: number, out: T): T {
    const i = this.index(handle, "getCenterOfMass");
    out.x = this.bodies.pos[i * 3];
    out.y = this.bodies.pos[i * 3 + 1];
    out.z = this.bodies.pos[i * 3 + 2];
    return out;
  }

  /** Teleports the body's origin to a pose; velocities are kept and the body wakes. */
  setPose(handle: number, position: Vec3Like, orientation: QuatLike): void {
    const i = this.index(handle, "setPose");
    requireVec("setPose: position", position);
    requireQuat("setPose: orientation", orientation);
    const b = this.bodies;
    const q = orientation;
    const l = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    b.rot[i * 4] = q.x / l;
    b.rot[i * 4 + 1] = q.y / l;
    b.rot[i * 4 + 2] = q.z / l;
    b.rot[i * 4 + 3] = q.w / l;
    this.setOriginPosition(i, position.x, position.y, position.z);
    updateWorldInertia(b, i);
    this.wakeIndex(i);
    this.updateProxy(i);
  }

  getLinearVelocity<T extends Vec3Like>(handle: number, out: T): T {
    return readVec(this.bodies.vel, this.index(handle, "getLinearVelocity"), out);
  }

  /** Sets the velocity of the centre of mass (clamped to the speed limit for dynamic bodies); wakes the body. */
  setLinearVelocity(handle: number, v: Vec3Like): void {
    this.setVelocity(handle, v, "setLinearVelocity", this.bodies.vel, this.maxLinearSpeed);
  }

  getAngularVelocity<T extends Vec3Like>(handle: number, out: T): T {
    return readVec(this.bodies.angVel, this.index(handle, "getAngularVelocity"), out);
  }

  /** Sets the angular velocity (rad/s, world axes; clamped to the limit); wakes the body. */
  setAngularVelocity(handle: number, w: Vec3Like): void {
    this.setVelocity(handle, w, "setAngularVelocity", this.bodies.angVel, this.maxAngularSpeed);
  }

  /** Validates, clamps to `limit` and writes a linear or angular velocity; wakes the body if it is non-zero. */
  private setVelocity(handle: number, v: Vec3Like, method: string, into: Float64Array, limit: number): void {
    const i = this.index(handle, method);
    requireVec(`${method}: velocity`, v);
    if (this.bodies.motionType[i] === MotionType.Static) return;
    into[i * 3] = v.x;
    into[i * 3 + 1] = v.y;
    into[i * 3 + 2] = v.z;
    clampSpeed(into, i * 3, limit);
    if (v.x !== 0 || v.y !== 0 || v.z !== 0) this.wakeIndex(i);
  }

  /** Applies an impulse (N s) at a world point (default: the centre of mass); wakes the body. */
  applyLinearImpulse(handle: number, impulse: Vec3Like, worldPoint?: Vec3Like): void {
    const i = this.index(handle, "applyLinearImpulse");
    requireVec("applyLinearImpulse: impulse", impulse);
    if (worldPoint !== undefined) requireVec("applyLinearImpulse: worldPoint", worldPoint);
    const b = this.bodies;
    if (b.motionType[i] !== MotionType.Dynamic) return;
    const m = b.invMass[i];
    b.vel[i * 3] += m * impulse.x;
    b.vel[i * 3 + 1] += m * impulse.y;
    b.vel[i * 3 + 2] += m * impulse.z;
    if (worldPoint) {
      const rx = worldPoint.x - b.pos[i * 3],
        ry = worldPoint.y - b.pos[i * 3 + 1],
        rz = worldPoint.z - b.pos[i * 3 + 2];
      this.addAngularImpulse(i, ry * impulse.z - rz * impulse.y, rz * impulse.x - rx * impulse.z, rx * impulse.y - ry * impulse.x);
    }
    this.clampSpeed(i);
    this.wakeIndex(i);
  }

  /** Applies an angular impulse (N m s, world axes); wakes the body. */
  applyAngularImpulse(handle: number, impulse: Vec3Like): void {
    const i = this.index(handle, "applyAngularImpulse");
    requireVec("applyAngularImpulse: impulse", impulse);
    if (this.bodies.motionType[i] !== MotionType.Dynamic) return;
    this.addAngularImpulse(i, impulse.x, impulse.y, impulse.z);
    this.clampSpeed(i);
    this.wakeIndex(i);
  }

  /** Adds a force (N) at a world point (default: the centre of mass) for the next step; wakes the body. */
  applyForce(handle: number, force: Vec3Like, worldPoint?: Vec3Like): void {
    const i = this.index(handle, "applyForce");
    requireVec("applyForce: force", force);
    if (worldPoint !== undefined) requireVec("applyForce: worldPoint", worldPoint);
    const b = this.bodies;
    if (b.motionType[i] !== MotionType.Dynamic) return;
    b.force[i * 3] += force.x;
    b.force[i * 3 + 1] += force.y;
    b.force[i * 3 + 2] += force.z;
    if (worldPoint) {
      const rx = worldPoint.x - b.pos[i * 3],
        ry = worldPoint.y - b.pos[i * 3 + 1],
        rz = worldPoint.z - b.pos[i * 3 + 2];
      b.torque[i * 3] += ry * force.z - rz * force.y;
      b.torque[i * 3 + 1] += rz * force.x - rx * force.z;
      b.torque[i * 3 + 2] += rx * force.y - ry * force.x;
    }
    this.wakeIndex(i);
  }

  /** Adds a torque (N m, world axes) for the next step; wakes the body. */
  applyTorque(handle: number, torque: Vec3Like): void {
    const i = this.index(handle, "applyTorque");
    requireVec("applyTorque: torque", torque);
    const b = this.bodies;
    if (b.motionType[i] !== MotionType.Dynamic) return;
    b.torque[i * 3] += torque.x;
    b.torque[i * 3 + 1] += torque.y;
    b.torque[i * 3 + 2] += torque.z;
    this.wakeIndex(i);
  }

  /**
   * Sets the body's velocities so that, moving freely, its origin reaches `position` and `orientation`
   * after `dt` (Havok's setTargetTransform; for kinematic bodies this is exact). Velocities persist.
   */
  moveKinematic(handle: number, position: Vec3Like, orientation: QuatLike, dt: number): void {
    const i = this.index(handle, "moveKinematic");
    requireVec("moveKinematic: position", position);
    requireQuat("moveKinematic: orientation", orientation);
    if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`moveKinematic: dt must be a finite number > 0, got ${String(dt)}`);
    const b = this.bodies;
    if (b.motionType[i] === MotionType.Static) return;
    // Angular velocity from the rotation q_target * conj(q) taken along the shortest arc; the quaternion
    // integrator then lands on the target to first order (exact as the substeps renormalize).
    const o = i * 4;
    const cx = -b.rot[o],
      cy = -b.rot[o + 1],
      cz = -b.rot[o + 2],
      cw = b.rot[o + 3];
    const l = Math.sqrt(orientation.x * orientation.x + orientation.y * orientation.y + orientation.z * orientation.z + orientation.w * orientation.w);
    const tx = orientation.x / l,
      ty = orientation.y / l,
      tz = orientation.z / l,
      tw = orientation.w / l;
    let dx = tw * cx + tx * cw + ty * cz - tz * cy;
    let dy = tw * cy - tx * cz + ty * cw + tz * cx;
    let dz = tw * cz + tx * cy - ty * cx + tz * cw;
    let dw = tw * cw - tx * cx - ty * cy - tz * cz;
    if (dw < 0) {
      dx = -dx;
      dy = -dy;
      dz = -dz;
      dw = -dw;
    }
    // angle = 2 atan2(|v|, w). The plugin calls this before every step of an ANIMATED body, so it uses the
    // engine's own atan2 (src/math/exactMath.ts): the same bits in every JavaScript engine.
    const sl = Math.sqrt(dx * dx + dy * dy + dz * dz);
    let wx = 0,
      wy = 0,
      wz = 0;
    if (sl > 1e-12) {
      const angle = 2 * exactAtan2(sl, dw);
      const s = angle / (sl * dt);
      wx = dx * s;
      wy = dy * s;
      wz = dz * s;
    }
    // Linear velocity of the centre of mass: target COM = target origin + R_target * localCom.
    rotateParts(tx, ty, tz, tw, b.localCom[i * 3], b.localCom[i * 3 + 1], b.localCom[i * 3 + 2], tmp3, 0);
    const vx = (position.x + tmp3[0] - b.pos[i * 3]) / dt;
    const vy = (position.y + tmp3[1] - b.pos[i * 3 + 1]) / dt;
    const vz = (position.z + tmp3[2] - b.pos[i * 3 + 2]) / dt;
    this.setLinearVelocity(handle, { x: vx, y: vy, z: vz });
    this.setAngularVelocity(handle, { x: wx, y: wy, z: wz });
    this.wakeIndex(i);
  }

  getShape(handle: number): Shape | null {
    return this.bodies.shape[this.index(handle, "getShape")];
  }

  /**
   * Replaces the body's shape; mass properties are recomputed, keeping user overrides. Giving a shapeless body
   * its first shape does not wake it (Havok's PhysicsAggregate shapes startAsleep bodies right after creating
   * them); replacing a shape wakes the body and the sleeping bodies its old or new bounds touch, so the change
   * takes effect at the next step (what rested on the old geometry falls or is pushed out).
   */
  setShape(handle: number, shape: Shape | null): void {
    const i = this.index(handle, "setShape");
    if (shape !== null && !(shape instanceof Shape)) throw new TypeError(`setShape: shape must be a Shape or null, got ${String(shape)}`);
    const b = this.bodies;
    const replaced = b.shape[i] !== null && b.shape[i] !== shape;
    for (let k = 0; k < 6; k++) shapeChangeBox[k] = b.aabb[i * 6 + k];
    // Keep the origin where it is while the centre of mass moves with the new shape.
    this.getPosition(handle, tmpV);
    b.shape[i] = shape;
    this.storeChildSurfaces(i, null);
    // Last step's manifolds of this body were made for the old shape: not to be reused.
    this.contactCache.forgetBody(handle);
    this.applyMass(i);
    this.setOriginPosition(i, tmpV.x, tmpV.y, tmpV.z);
    updateWorldInertia(b, i);
    this.removeProxy(i);
    this.updateProxy(i);
    if (replaced) this.wakeAroundShapeChange(i);
  }

  /**
   * Wakes body i and every sleeping body whose bounds touch body i's old bounds (shapeChangeBox) or its new
   * ones, grown by the contact touch tolerance (sleeping bodies rest within it of what holds them up).
   */
  private wakeAroundShapeChange(i: number): void {
    const b = this.bodies;
    const a = b.aabb;
    const o = i * 6;
    const box = shapeChangeBox;
    const hasShape = b.shape[i] !== null;
    for (let k = 0; k < 3; k++) {
      box[k] = (hasShape ? Math.min(box[k], a[o + k]) : box[k]) - TOUCH_TOLERANCE;
      box[k + 3] = (hasShape ? Math.max(box[k + 3], a[o + k + 3]) : box[k + 3]) + TOUCH_TOLERANCE;
    }
    this.wakeIndex(i);
    for (let j = 0; j < b.count; j++) {
      if ((b.flags[j] & BodyFlag.Sleeping) === 0) continue;
      const q = j * 6;
      if (a[q] <= box[3] && a[q + 3] >= box[0] && a[q + 1] <= box[4] && a[q + 4] >= box[1] && a[q + 2] <= box[5] && a[q + 5] >= box[2]) {
        this.wakeIndex(j);
      }
    }
  }

  /** Sets the density used to compute mass properties from the shape. */
  setDensity(handle: number, density: number): void {
    const i = this.index(handle, "setDensity");
    requireNonNegative("density", density);
    this.bodies.density[i] = density;
    this.getPosition(handle, tmpV);
    this.applyMass(i);
    this.setOriginPosition(i, tmpV.x, tmpV.y, tmpV.z);
    updateWorldInertia(this.bodies, i);
  }

  /**
   * Overrides mass properties: each given field replaces the computed one, and the overrides survive
   * shape changes. Pass null to return to the computed values.
   */
  setMassProperties(handle: number, overrides: Partial<MassProperties> | null): void {
    const i = this.index(handle, "setMassProperties");
    if (overrides !== null) validateMassOverride(overrides);
    const b = this.bodies;
    this.getPosition(handle, tmpV);
    b.massOverride[i] = overrides ? { ...b.massOverride[i], ...stripUndefined(overrides) } : null;
    this.applyMass(i);
    this.setOriginPosition(i, tmpV.x, tmpV.y, tmpV.z);
    updateWorldInertia(b, i);
  }

  /** The body's effective mass properties (principal moments in kg m^2; mass 0 = infinite). */
  getMassProperties(handle: number): MassProperties {
    const i = this.index(handle, "getMassProperties");
    return this.resolveMass(i);
  }

  /** Mass properties a shape would give at a density (no body needed). */
  computeMassProperties(shape: Shape | null, density: number): MassProperties {
    requireNonNegative("density", density);
    const md = computeMassData(shape, density, this.scratch.massData);
    return massDataToProperties(md, shape === null);
  }

  getLinearDamping(handle: number): number {
    return this.bodies.linDamp[this.index(handle, "getLinearDamping")];
  }
  setLinearDamping(handle: number, d: number): void {
    const i = this.index(handle, "setLinearDamping");
    requireNonNegative("linearDamping", d);
    this.bodies.linDamp[i] = d;
  }
  getAngularDamping(handle: number): number {
    return this.bodies.angDamp[this.index(handle, "getAngularDamping")];
  }
  setAngularDamping(handle: number, d: number): void {
    const i = this.index(handle, "setAngularDamping");
    requireNonNegative("angularDamping", d);
    this.bodies.angDamp[i] = d;
  }
  getGravityFactor(handle: number): number {
    return this.bodies.gravityFactor[this.index(handle, "getGravityFactor")];
  }
  setGravityFactor(handle: number, f: number): void {
    const i = this.index(handle, "setGravityFactor");
    requireFinite("gravityFactor", f);
    this.bodies.gravityFactor[i] = f;
    this.wakeIndex(i);
  }

  /** Sets the continuous collision mode and sweep parameters. */
  setContinuousDetection(handle: number, cd: ContinuousDetection): void {
    const i = this.index(handle, "setContinuousDetection");
    validateContinuity(cd);
    const b = this.bodies;
    b.continuity[i] = cd.mode;
    b.sweepMinStep[i] = cd.minimumSweepTimestep;
    b.sweepConvergence[i] = cd.sweepConvergenceThreshold;
  }

  getContinuousDetection(handle: number): ContinuousDetection {
    const i = this.index(handle, "getContinuousDetection");
    const b = this.bodies;
    return {
      mode: b.continuity[i] as ContinuousDetectionMode,
      minimumSweepTimestep: b.sweepMinStep[i],
      sweepConvergenceThreshold: b.sweepConvergence[i],
    };
  }

  /** Sets the body's speculative margin bounds (m). */
  setSpeculativeMargins(handle: number, minimum: number, maximum: number): void {
    const i = this.index(handle, "setSpeculativeMargins");
    validateMargins(minimum, maximum);
    this.bodies.marginMin[i] = minimum;
    this.bodies.marginMax[i] = maximum;
  }

  /** The speculative margin the body used in the last step. */
  getSpeculativeMargin(handle: number): number {
    return this.bodies.margin[this.index(handle, "getSpeculativeMargin")];
  }

  setMaterial(handle: number, m: Partial<SurfaceMaterial>): void {
    const i = this.index(handle, "setMaterial");
    this.bodies.material[i] = validateMaterial(surfaceMaterial({ ...m }));
  }
  getMaterial(handle: number): SurfaceMaterial {
    return { ...this.bodies.material[this.index(handle, "getMaterial")] };
  }

  /**
   * Gives the children of the body's shape surfaces of their own (Havok's per-leaf materials, filters and
   * triggers of a container): runs of compound children or mesh triangles, each with a material, filter and
   * trigger flag; null removes them. Contacts between two children combine the children's materials (a run
   * without one uses the body's), are dropped when the children's filters do not meet, and a trigger child
   * reports trigger events instead of contacts; queries see only the children their filter meets (and trigger
   * children only when they hit triggers). The body's own filter still gates the pair and the query as a whole
   * (set it to cover every child). Trigger children of a compound shape stay triggers. Cleared by setShape,
   * whose child numbering may differ.
   */
  setChildSurfaces(handle: number, surfaces: readonly ChildSurfaceDescription[] | null): void {
    const i = this.index(handle, "setChildSurfaces");
    this.storeChildSurfaces(i, surfaces === null ? null : toChildSurfaces(surfaces, (m) => validateMaterial(surfaceMaterial({ ...m }))));
  }

  /** Stores the body's surfaces with its compound's trigger children folded in, and sets the flags that gate them. */
  private storeChildSurfaces(i: number, given: ChildSurfaces | null): void {
    const b = this.bodies;
    const s = withShapeTriggers(given, b.shape[i]);
    const slot = b.handle[i] % SlotCount;
    while (this.scratch.childSurfaceSlots.length <= slot) this.scratch.childSurfaceSlots.push(null);
    this.scratch.childSurfaceSlots[slot] = s;
    b.flags[i] &= ~(BodyFlag.ChildSurfaces | BodyFlag.ChildTriggers);
    if (s !== null) b.flags[i] |= BodyFlag.ChildSurfaces | (s.hasTrigger ? BodyFlag.ChildTriggers : 0);
  }

  /** True when the body has per-child surfaces: given by setChildSurfaces, or its compound's trigger children. */
  hasChildSurfaces(handle: number): boolean {
    return (this.bodies.flags[this.index(handle, "hasChildSurfaces")] & BodyFlag.ChildSurfaces) !== 0;
  }

  /** Collision filter: a pair collides when (A.membership & B.collideWith) and (B.membership & A.collideWith). */
  setCollisionFilter(handle: number, membership: number, collideWith: number): void {
    const i = this.index(handle, "setCollisionFilter");
    if (!Number.isInteger(membership)) throw new RangeError(`membership must be an integer, got ${String(membership)}`);
    if (!Number.isInteger(collideWith)) throw new RangeError(`collideWith must be an integer, got ${String(collideWith)}`);
    this.bodies.membership[i] = membership | 0;
    this.bodies.collideWith[i] = collideWith | 0;
  }
  getCollisionFilter<T extends { membership: number; collideWith: number }>(handle: number, out: T): T {
    const i = this.index(handle, "getCollisionFilter");
    out.membership = this.bodies.membership[i];
    out.collideWith = this.bodies.collideWith[i];
    return out;
  }

  /** Makes the body a trigger (overlap events, no contact response) or a solid body. */
  setTrigger(handle: number, isTrigger: boolean): void {
    const i = this.index(handle, "setTrigger");
    if (isTrigger) this.bodies.flags[i] |= BodyFlag.Trigger;
    else this.bodies.flags[i] &= ~BodyFlag.Trigger;
  }
  isTrigger(handle: number): boolean {
    return (this.bodies.flags[this.index(handle, "isTrigger")] & BodyFlag.Trigger) !== 0;
  }

  /** Bodies pairs for which collision is disabled (e.g. jointed bodies). */
  disableCollisionBetween(a: number, b: number): void {
    this.index(a, "disableCollisionBetween");
    this.index(b, "disableCollisionBetween");
    const [x, y] = a < b ? [a, b] : [b, a];
    this.disabledPairs.insert(x, y);
  }

  // ---------------------------------------------------------------- sleeping

  setSleepingAllowed(handle: number, allowed: boolean): void {
    const i = this.index(handle, "setSleepingAllowed");
    if (allowed) this.bodies.flags[i] |= BodyFlag.SleepingAllowed;
    else {
      this.bodies.flags[i] &= ~BodyFlag.SleepingAllowed;
      this.wakeIndex(i);
    }
  }
  isSleeping(handle: number): boolean {
    return (this.bodies.flags[this.index(handle, "isSleeping")] & BodyFlag.Sleeping) !== 0;
  }
  /** Wakes the body and its sleeping island. */
  wake(handle: number): void {
    this.wakeIndex(this.index(handle, "wake"));
  }
  /** Puts the body to sleep now (alone, as its own island); it wakes when touched or changed. */
  sleep(handle: number): void {
    const i = this.index(handle, "sleep");
    const b = this.bodies;
    if (b.motionType[i] === MotionType.Static || b.flags[i] & BodyFlag.Sleeping) return;
    this.sleepBodies([i], 1);
  }

  /** World bounds of the body's shape at its current pose (unexpanded); an empty box at the origin if shapeless. */
  getAabb(handle: number, out: Float64Array): Float64Array {
    const i = this.index(handle, "getAabb");
    const s = this.bodies.shape[i];
    this.originPose(i, this.scratch.poseA);
    if (s === null) {
      out[0] = out[3] = this.scratch.poseA.px;
      out[1] = out[4] = this.scratch.poseA.py;
      out[2] = out[5] = this.scratch.poseA.pz;
    } else s.computeAabb(this.scratch.poseA, out, 0);
    return out;
  }

  // ---------------------------------------------------------------- queries

  /**
   * Nearest hit of the ray origin + t * direction (t in [0, maxDistance], direction normalized here).
   * A ray starting inside a shape does not hit that shape.
   */
  raycast(origin: Vec3Like, direction: Vec3Like, maxDistance: number, filter: RayFilter, out: RayResult): boolean {
    const v = this.prepareRay(origin, direction, maxDistance, filter);
    v.all = null;
    v.castTrees(maxDistance);
    if (v.best < 0) return false;
    v.fillResult(v.best, v.bestT, v.bestNormal[0], v.bestNormal[1], v.bestNormal[2], v.bestChild, out);
    return true;
  }

  /** Every hit of the ray, sorted by distance (then by body handle), written into out (grown as needed). */
  raycastAll(origin: Vec3Like, direction: Vec3Like, maxDistance: number, filter: RayFilter, out: RayResult[]): number {
    const v = this.prepareRay(origin, direction, maxDistance, filter);
    v.all = out;
    v.allCount = 0;
    v.castTrees(maxDistance);
    const n = v.allCount;
    const sorted = out.slice(0, n).sort((a, b) => a.distance - b.distance || a.body - b.body);
    for (let k = 0; k < n; k++) out[k] = sorted[k];
    v.all = null;
    return n;
  }

  /** Checks a ray's arguments (a RangeError naming the bad one) and starts the cast (src/queries/worldRaycast.ts). */
  private prepareRay(origin: Vec3Like, direction: Vec3Like, maxDistance: number, filter: RayFilter): RayVisitor {
    requireVec("raycast: origin", origin);
    requireVec("raycast: direction", direction);
    if (!(maxDistance >= 0)) throw new RangeError(`raycast: maxDistance must be >= 0, got ${String(maxDistance)}`);
    const l = Math.sqrt(direction.x * direction.x + direction.y * direction.y + direction.z * direction.z);
    if (!(l > 0)) throw new RangeError(`raycast: direction must be non-zero, got ${fmtVecArg(direction)}`);
    const v = this.scratch.rayVisitor;
    v.prepare(origin, direction, maxDistance, filter);
    return v;
  }

  // ---------------------------------------------------------------- the step

  /** Advances the world by dt seconds. */
  step(dt: number): void {
    if (typeof dt !== "number" || !Number.isFinite(dt) || dt < 0) {
      throw new RangeError(`step: dt must be a finite number >= 0, got ${String(dt)}`);
    }
    if (this.scratch.stepping) throw new Error("step: the world is already stepping (step called from inside a callback)");
    this.scratch.stepping = true;
    try {
      this.contactEvents.clear();
      this.triggerEvents.clear();
      if (dt === 0) return;
      if (this.scratch.debugRecorder !== null) this.scratch.debugRecorder.beginStep(this.bodies.count);
      // 1. Prestep: sleepers jointed to a moving body wake with their island (sleep.ts); the awake moving bodies.
      if (this.joints.count > 0) wakeJointedSleepers(this, dt);
      buildActiveList(this);
      // 2. Predict: t0 poses, speculative margins and velocity-expanded bounds (predict.ts).
      predict(this, dt);
      // 3. Broad phase: pairs, sleepers they wake, the partner push (contacts.ts).
      broadPhase(this, dt);
      // 4. Narrow phase: manifolds into the solver, Continuous pairs swept (contacts.ts, pairSweep.ts).
      narrowPhase(this, dt);
      // 5. Substepped soft solve (solve.ts).
      solve(this, dt);
      // 6. Time of impact, then the non-finite guard (continuous.ts).
      continuousPass(this, dt);
      guardNonFinite(this);
      // 7. Islands and sleep (sleep.ts).
      updateSleep(this, dt);
      // 8. Finish: events (eventsStage.ts) and the step's counters (solve.ts).
      buildEvents(this);
      finishStep(this);
    } finally {
      this.scratch.stepping = false;
    }
  }

  /**
   * A copy of the whole simulation state (bodies, broad-phase trees, contact cache with its warm-start
   * impulses, islands, joints, event state). `restore` puts it back: the world then continues exactly as it
   * did from the moment of the snapshot, bit for bit. Shapes are shared, not copied (they are immutable).
   * Needs `import "continuum-physics/snapshot"` (src/snapshot.ts) once, which installs the byte codec.
   */
  snapshot(): WorldSnapshot {
    return codecFor("snapshot", this).snapshot(this);
  }

  /** Restores a snapshot taken from this world (or from a world with the same construction). */
  restore(snapshot: WorldSnapshot): void {
    codecFor("restore", this).restore(this, snapshot);
  }

  /**
   * Writes the simulation state to `w` (after what it holds), shapes as indices into `shapes`. The step
   * state only: for callers that keep their own shape table (the Babylon plugin's snapshots).
   */
  encodeState(shapes: ShapeTable, w?: ByteWriter): ByteWriter {
    return codecFor("snapshot", this).encodeState(this, shapes, w);
  }

  /** Reads what {@link encodeState} wrote back into this world. */
  decodeState(r: ByteReader, shapes: ShapeTable): void {
    codecFor("restore", this).decodeState(this, r, shapes);
  }

  /**
   * A 32-bit FNV-1a hash of every body's handle, pose and velocities, bit for bit: equal hashes mean
   * (with overwhelming probability) identical states. For determinism tests and replays.
   */
  stateHash(): number {
    const b = this.bodies;
    const view = hashView;
    let h = 0x811c9dc5;
    const mix = (x: number) => {
      view.setFloat64(0, x);
      for (let k = 0; k < 8; k++) {
        h ^= view.getUint8(k);
        h = Math.imul(h, 0x01000193);
      }
    };
    for (let i = 0; i < b.count; i++) {
      mix(b.handle[i]);
      for (let k = 0; k < 3; k++) mix(b.pos[i * 3 + k]);
      for (let k = 0; k < 4; k++) mix(b.rot[i * 4 + k]);
      for (let k = 0; k < 3; k++) mix(b.vel[i * 3 + k]);
      for (let k = 0; k < 3; k++) mix(b.angVel[i * 3 + k]);
    }
    return h >>> 0;
  }

  // ---------------------------------------------------------------- internals

  /** Dense index of a live handle, or a RangeError naming the method. */
  private index(handle: number, method: string): number {
    const i = this.bodies.indexOf(handle);
    if (i < 0) throw new RangeError(`${method}: body handle ${String(handle)} is not a live body of this world`);
    return i;
  }


  /** Sets the centre of mass so that the origin lands at (x, y, z) with the current orientation. */
  private setOriginPosition(i: number, x: number, y: number, z: number): void {
    const b = this.bodies;
    const o = i * 4;
    rotateParts(b.rot[o], b.rot[o + 1], b.rot[o + 2], b.rot[o + 3], b.localCom[i * 3], b.localCom[i * 3 + 1], b.localCom[i * 3 + 2], tmp3, 0);
    b.pos[i * 3] = x + tmp3[0];
    b.pos[i * 3 + 1] = y + tmp3[1];
    b.pos[i * 3 + 2] = z + tmp3[2];
    // Element copies: subarray() creates a view object per call.
    for (let k = 0; k < 3; k++) b.pos0[i * 3 + k] = b.pos[i * 3 + k];
    for (let k = 0; k < 4; k++) b.rot0[o + k] = b.rot[o + k];
  }

  private addAngularImpulse(i: number, x: number, y: number, z: number): void {
    const b = this.bodies;
    const s = b.invInertiaWorld,
      o = i * 6;
    b.angVel[i * 3] += s[o] * x + s[o + 3] * y + s[o + 4] * z;
    b.angVel[i * 3 + 1] += s[o + 3] * x + s[o + 1] * y + s[o + 5] * z;
    b.angVel[i * 3 + 2] += s[o + 4] * x + s[o + 5] * y + s[o + 2] * z;
  }

  /** The speed limits on body i's velocities. */
  private clampSpeed(i: number): void {
    clampSpeed(this.bodies.vel, i * 3, this.maxLinearSpeed);
    clampSpeed(this.bodies.angVel, i * 3, this.maxAngularSpeed);
  }

  /** Effective mass properties of body i: computed from shape and density, then overridden. */
  private resolveMass(i: number): MassProperties {
    const b = this.bodies;
    const md = computeMassData(b.shape[i], b.density[i], this.scratch.massData);
    const props = massDataToProperties(md, b.shape[i] === null);
    const o = b.massOverride[i];
    if (o) {
      if (o.mass !== undefined && o.inertia === undefined && props.mass > 0) {
        // Inertia is per unit mass until overridden: it scales with the new mass.
        const s = o.mass / props.mass;
        props.inertia = { x: props.inertia.x * s, y: props.inertia.y * s, z: props.inertia.z * s };
      }
      if (o.mass !== undefined) props.mass = o.mass;
      if (o.centerOfMass !== undefined) props.centerOfMass = { x: o.centerOfMass.x, y: o.centerOfMass.y, z: o.centerOfMass.z };
      if (o.inertia !== undefined) props.inertia = { x: o.inertia.x, y: o.inertia.y, z: o.inertia.z };
      if (o.inertiaOrientation !== undefined) {
        const q = o.inertiaOrientation;
        props.inertiaOrientation = { x: q.x, y: q.y, z: q.z, w: q.w };
      }
    }
    return props;
  }

  /** Writes the inverse mass, inverse inertia, local centre of mass and bounding radii of body i. */
  private applyMass(i: number): void {
    const b = this.bodies;
    const p = this.resolveMass(i);
    const dynamic = b.motionType[i] === MotionType.Dynamic;
    b.localCom[i * 3] = p.centerOfMass.x;
    b.localCom[i * 3 + 1] = p.centerOfMass.y;
    b.localCom[i * 3 + 2] = p.centerOfMass.z;
    b.invMass[i] = dynamic && p.mass > 0 ? 1 / p.mass : 0;
    // Inverse inertia in the body frame: R_p diag(1/I) R_p^T, with 0 for infinite axes.
    const inv = [0, 0, 0],
      fwd = [0, 0, 0];
    const I = [p.inertia.x, p.inertia.y, p.inertia.z];
    // Mass and inertia are independent: mass 0 with a finite moment turns about that axis (a wheel on a
    // fixed axle), as MassProperties documents.
    for (let k = 0; k < 3; k++) {
      inv[k] = dynamic && I[k] > 0 ? 1 / I[k] : 0;
      fwd[k] = dynamic && I[k] > 0 ? I[k] : 0;
    }
    const q = p.inertiaOrientation;
    diagRotated(inv, q, b.invInertiaLocal, i * 6);
    diagRotated(fwd, q, b.inertiaLocal, i * 6);
    const s = b.shape[i];
    const c = Math.sqrt(p.centerOfMass.x * p.centerOfMass.x + p.centerOfMass.y * p.centerOfMass.y + p.centerOfMass.z * p.centerOfMass.z);
    if (s) {
      b.radius[i] = s.maximumRadius + c;
      b.angExpansion[i] = b.radius[i] - Math.max(0, s.minimumRadius - c);
    } else {
      b.radius[i] = 0;
      b.angExpansion[i] = 0;
    }
  }


}

// ---------------------------------------------------------------- helpers

const tmp3 = new Float64Array(3);
const pose7 = new Float64Array(7);
const hashView = new DataView(new ArrayBuffer(8));
const tmpV = { x: 0, y: 0, z: 0 };
/** A body's bounds before its shape changed (setShape). */
const shapeChangeBox = new Float64Array(6);

function readVec<T extends Vec3Like>(a: Float64Array, i: number, out: T): T {
  out.x = a[i * 3];
  out.y = a[i * 3 + 1];
  out.z = a[i * 3 + 2];
  return out;
}

/** out[o..o+5] = R diag(d) R^T for R from unit quaternion q. */
function diagRotated(d: number[], q: QuatLike, out: Float64Array, o: number): void {
  const { x: qx, y: qy, z: qz, w: qw } = q;
  const l = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw) || 1;
  const x = qx / l,
    y = qy / l,
    z = qz / l,
    w = qw / l;
  const r = [
    1 - 2 * (y * y + z * z),
    2 * (x * y - w * z),
    2 * (x * z + w * y),
    2 * (x * y + w * z),
    1 - 2 * (x * x + z * z),
    2 * (y * z - w * x),
    2 * (x * z - w * y),
    2 * (y * z + w * x),
    1 - 2 * (x * x + y * y),
  ];
  const m = (i: number, j: number) => r[i * 3] * d[0] * r[j * 3] + r[i * 3 + 1] * d[1] * r[j * 3 + 1] + r[i * 3 + 2] * d[2] * r[j * 3 + 2];
  out[o] = m(0, 0);
  out[o + 1] = m(1, 1);
  out[o + 2] = m(2, 2);
  out[o + 3] = m(0, 1);
  out[o + 4] = m(0, 2);
  out[o + 5] = m(1, 2);
}

function massDataToProperties(md: MassData, shapeless: boolean): MassProperties {
  if (shapeless || md.mass === 0) {
    // A shapeless (or empty) body behaves as Havok's: mass 1, inertia (1, 1, 1), centre at the origin.
    return {
      mass: 1,
      centerOfMass: { x: 0, y: 0, z: 0 },
      inertia: { x: 1, y: 1, z: 1 },
      inertiaOrientation: { x: 0, y: 0, z: 0, w: 1 },
    };
  }
  const moments = new Float64Array(3);
  const q = { x: 0, y: 0, z: 0, w: 1 };
  principalAxes(md.inertia, moments, q);
  return {
    mass: md.mass,
    centerOfMass: { x: md.comX, y: md.comY, z: md.comZ },
    inertia: { x: moments[0], y: moments[1], z: moments[2] },
    inertiaOrientation: q,
  };
}


function stripUndefined<T extends object>(o: T): Partial<T> {
  const r: Partial<T> = {};
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] !== undefined) r[k] = o[k];
  return r;
}

/** The settings validated, defaults filled in (World's constructor; the error names the setting). */
function resolveSettings(settings: WorldSettings): ResolvedSettings {
  const g = settings.gravity ?? { x: 0, y: -9.81, z: 0 };
  requireVec("settings.gravity", g);
  return {
    gx: g.x,
    gy: g.y,
    gz: g.z,
    substeps: positiveInt("settings.substeps", settings.substeps ?? DEFAULT_SUBSTEPS),
    contactSubsteps: positiveInt("settings.contactSubsteps", settings.contactSubsteps ?? settings.substeps ?? DEFAULT_CONTACT_SUBSTEPS),
    contactSpring: settings.contactSpring ?? { frequency: DEFAULT_SOLVER_SETTINGS.contactHertz, dampingRatio: DEFAULT_SOLVER_SETTINGS.contactDampingRatio },
    maximumRecoveryVelocity: settings.maximumRecoveryVelocity ?? DEFAULT_SOLVER_SETTINGS.maximumRecoveryVelocity,
    restitutionThreshold: settings.restitutionThreshold ?? DEFAULT_SOLVER_SETTINGS.restitutionThreshold,
    sleepingEnabled: settings.sleepingEnabled ?? true,
    sleepThreshold: settings.sleepThreshold ?? 0.05,
    timeToSleep: settings.timeToSleep ?? 0.5,
    maxLinearSpeed: settings.maxLinearSpeed ?? 200,
    maxAngularSpeed: settings.maxAngularSpeed ?? 100,
  };
}

function positiveInt(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${String(v)}`);
  return v;
}

function validateContinuity(cd: ContinuousDetection): void {
  if (!cd || typeof cd !== "object") throw new TypeError(`continuity must be a ContinuousDetection, got ${String(cd)}`);
  if (cd.mode !== 0 && cd.mode !== 1 && cd.mode !== 2) {
    throw new RangeError(`continuity.mode must be Discrete (0), Passive (1) or Continuous (2), got ${String(cd.mode)}`);
  }
  if (cd.mode === ContinuousDetectionMode.Continuous) {
    if (!(cd.minimumSweepTimestep >= 0) || !Number.isFinite(cd.minimumSweepTimestep)) {
      throw new RangeError(`continuity.minimumSweepTimestep must be a finite number >= 0, got ${String(cd.minimumSweepTimestep)}`);
    }
    if (!(cd.sweepConvergenceThreshold > 0) || !Number.isFinite(cd.sweepConvergenceThreshold)) {
      throw new RangeError(`continuity.sweepConvergenceThreshold must be a finite number > 0, got ${String(cd.sweepConvergenceThreshold)}`);
    }
  }
}

function validateMargins(min: number, max: number): void {
  if (!(min >= 0) || !Number.isFinite(min)) throw new RangeError(`minimumSpeculativeMargin must be a finite number >= 0, got ${String(min)}`);
  if (!(max >= min)) throw new RangeError(`maximumSpeculativeMargin must be >= the minimum (${min}), got ${String(max)}`);
}

function validateMaterial(m: SurfaceMaterial): SurfaceMaterial {
  requireNonNegative("material.friction", m.friction);
  requireNonNegative("material.staticFriction", m.staticFriction);
  requireNonNegative("material.rollingResistance", m.rollingResistance);
  if (!(m.restitution >= 0 && m.restitution <= 1)) throw new RangeError(`material.restitution must be in [0, 1], got ${String(m.restitution)}`);
  for (const [k, v] of [
    ["material.frictionCombine", m.frictionCombine],
    ["material.restitutionCombine", m.restitutionCombine],
  ] as const) {
    if (!Number.isInteger(v) || v < 0 || v > 4) throw new RangeError(`${k} must be a CombineMode (0..4), got ${String(v)}`);
  }
  return m;
}

function validateMassOverride(o: Partial<MassProperties>): void {
  if (o.mass !== undefined) requireNonNegative("massProperties.mass", o.mass);
  if (o.centerOfMass !== undefined) requireVec("massProperties.centerOfMass", o.centerOfMass);
  if (o.inertia !== undefined) {
    if (!isFiniteVec3(o.inertia) || o.inertia.x < 0 || o.inertia.y < 0 || o.inertia.z < 0) {
      throw new RangeError(`massProperties.inertia must be a finite vector >= 0, got ${fmtVecArg(o.inertia)}`);
    }
  }
  if (o.inertiaOrientation !== undefined) requireQuat("massProperties.inertiaOrientation", o.inertiaOrientation);
}
