/**
 * The simulation: bodies, broad phase, narrow phase, solver, sleeping and events. `step(dt)` reads top
 * to bottom as the pipeline of docs/design.md: prestep, predict, margins and bounds, broad phase,
 * narrow phase, solve, islands and sleep, finish (poses and events).
 */
import { DynamicTree } from "../broadphase/dynamicTree";
import { IntList } from "../collections/intList";
import { PairTable } from "../collections/pairTable";
import { ManifoldBuffer, type ContactManifold } from "../collision/contactManifold";
import { collideShapes, collideShapesInto } from "../collision/narrowPhase";
import { SweepResult, SweptMotion, sweepShapeLinear, sweepShapes } from "../collision/sweep";
import { isTriggerChild, triggerChildCount } from "../shapes/compound";
import { Pose } from "../math/pose";
import { isValidQuat, type QuatLike } from "../math/quat";
import { isFiniteVec3, type Vec3Like } from "../math/vec3";
import { RayHit, rayCastShape } from "../queries/rayShape";
import { WorldQueries } from "../queries/worldQueries";
import { Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import { BodyFlag, BodySet } from "../dynamics/bodySet";
import { predictBodyBounds } from "../dynamics/boundsExpansion";
import { anchorOnFasterTurningBody } from "../dynamics/contactAnchors";
import { CONTACT, ContactField, ContactSolver, HEADER, HeaderField, TOUCH_TOLERANCE } from "../dynamics/contactSolver";
import {
  clampSpeeds,
  integrateGyroscopic,
  integratePositions,
  integrateVelocities,
  updateWorldInertia,
} from "../dynamics/integrator";
import { UnionFind } from "../dynamics/islands";
import type { JointDescription } from "../dynamics/joint6dof";
import { JointSolver } from "../dynamics/jointSolver";
import { computeMassData, MassData, principalAxes } from "../dynamics/massProperties";
import {
  type BodyDescription,
  CombineMode,
  type ContinuousDetection,
  ContinuousDetectionMode,
  type MassProperties,
  MotionType,
  type PairMaterial,
  type SpringSettings,
  type SurfaceMaterial,
  surfaceMaterial,
} from "./descriptions";
import { ChildSurfaces, toChildSurfaces, type ChildSurfaceDescription } from "./childSurfaces";
import { ContactEventBuffer, ContactEventType, TriggerEventBuffer, TriggerEventType } from "./events";
import { ByteReader, ByteWriter, ShapeList, StateDecoder, StateEncoder, type ShapeTable } from "./stateCodec";
import { exactAtan2 } from "../math/exactMath";
import type { SweepRecorder } from "./debugView";

/** Fields of the world that are scratch or wiring, not simulation state (left out of snapshots). */
const SNAPSHOT_SKIP: ReadonlySet<string> = new Set(["rayVisitor", "candidateVisitor", "queries", "manifolds", "stepping", "pairMaterialCallback", "debugRecorder", "childSurfaces"]);

/** World-wide settings. */
export interface WorldSettings {
  /** Default (0, -9.81, 0). */
  gravity?: Vec3Like;
  /** Solver substeps per step. Default 8: with the 60 Hz contact spring that is 1/8 of the substep rate (Box2D v3 keeps contact hertz at most 1/4), stiff enough that a 100:1 mass ratio stack sags under 1 cm. */
  substeps?: number;
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
}

/** Filter for ray queries. */
export interface RayFilter {
  membership?: number;
  collideWith?: number;
  hitTriggers?: boolean;
  /** A body handle to skip. */
  ignoreBody?: number;
}

/** A ray hit. */
export class RayResult {
  body = -1;
  distance = 0;
  point = { x: 0, y: 0, z: 0 };
  normal = { x: 0, y: 0, z: 0 };
  /** Compound child index, -1 for other shapes. */
  childIndex = -1;
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

/** Encoder, decoder and byte buffer shared by every world's snapshots (reused: they keep their capacity). */
const stateEncoder = new StateEncoder();
const stateDecoder = new StateDecoder();
const stateWriter = new ByteWriter();

/** Counters of the last step, for overlays and tests. */
export class StepStats {
  bodies = 0;
  awakeBodies = 0;
  pairs = 0;
  manifolds = 0;
  contacts = 0;
  speculativeContacts = 0;
  /** Narrow-phase sweeps of Continuous pairs. */
  sweeps = 0;
  /** Post-solve sweeps of fast Continuous bodies' motion. */
  toiChecks = 0;
  /** Bodies moved back to a time of impact by the post-solve pass. */
  toiEvents = 0;
  /** Deepest penetration over all contacts at the end of the step (m, >= 0). */
  maxPenetration = 0;
  /** Bodies that reached a non-finite state this step and were put to rest (see World.nonFiniteBodies). */
  nonFiniteBodies = 0;
}

const TREE_NONE = 0,
  TREE_MOVING = 1,
  TREE_STATIC = 2;

/** Collects broad-phase pairs as (slotA, slotB). */
class PairCollector {
  readonly pairs = new IntList(256);
  onPair(a: number, b: number): void {
    this.pairs.push2(a, b);
  }
}

/** Nearest-hit ray visitor over the trees. */
class RayVisitor {
  world!: World;
  ox = 0;
  oy = 0;
  oz = 0;
  dx = 0;
  dy = 0;
  dz = 0;
  filter: RayFilter = {};
  best = -1;
  bestT = Infinity;
  bestNormal = new Float64Array(3);
  bestChild = -1;
  all: RayResult[] | null = null;
  allCount = 0;
  readonly hit = new RayHit();
  onRayLeaf(slot: number, maxT: number): number {
    return this.world._rayLeaf(this, slot, maxT);
  }
}

/** The physics world. */
export class World {
  /** Per-body storage (internal; read-only for users). */
  readonly bodies = new BodySet();
  /** Contact events of the last step. */
  readonly contactEvents = new ContactEventBuffer();
  /** Trigger events of the last step. */
  readonly triggerEvents = new TriggerEventBuffer();
  /** Counters of the last step. */
  readonly stats = new StepStats();
  /**
   * Handles of the bodies that reached a non-finite pose or velocity in the last step (an extreme user force,
   * say). Each was put back to its pose at the start of the step, stopped and put to sleep, so the NaN never
   * reaches another body.
   */
  readonly nonFiniteBodies: number[] = [];
  /** Point proximity, shape proximity and shape casts over the world (src/queries). */
  readonly queries = new WorldQueries(this);
  /**
   * The joints (6-DOF constraints with per-axis limits, motors, friction and springs). Create them with
   * {@link World.createJoint}; configure them through this solver's per-axis methods.
   */
  readonly joints: JointSolver;

  /** Substeps per step. */
  substeps: number;
  contactSpring: SpringSettings;
  maximumRecoveryVelocity: number;
  restitutionThreshold: number;
  sleepingEnabled: boolean;
  sleepThreshold: number;
  timeToSleep: number;
  maxLinearSpeed: number;
  maxAngularSpeed: number;
  /**
   * Optional hook to edit a pair's material after it is combined from the two surfaces (bepu's
   * ConfigureContactManifold). Called once per body pair per step; must not allocate for speed.
   */
  pairMaterialCallback: ((a: number, b: number, material: PairMaterial) => void) | null = null;

  private gx: number;
  private gy: number;
  private gz: number;
  /** @internal Broad-phase tree of awake moving bodies (user data = body slot). For queries. */
  readonly movingTree = new DynamicTree();
  /** @internal Broad-phase tree of static and sleeping bodies (user data = body slot). For queries. */
  readonly staticTree = new DynamicTree();
  private readonly collector = new PairCollector();
  private readonly manifolds = new ManifoldBuffer();
  private readonly solver = new ContactSolver();
  private readonly active = new IntList(64);
  private readonly poseA = new Pose();
  private readonly poseB = new Pose();
  private readonly pairMaterial: PairMaterial;
  /** The pair material of a manifold between children with surfaces of their own. */
  private readonly childPairMaterial: PairMaterial;
  /** Per-child surfaces by body handle (bodies flagged BodyFlag.ChildSurfaces). */
  private readonly childSurfaces = new Map<number, ChildSurfaces>();
  private readonly unionFind = new UnionFind();
  private islandMin = new Float64Array(64);
  /** Sleeping islands: lists of handles, by island id. */
  private sleepingIslands: (number[] | null)[] = [];
  private freeIslandIds: number[] = [];
  /** Handle lists of released islands, reused by the next islands to fall asleep (no allocation per sleep). */
  private readonly islandListPool: number[][] = [];
  private touchingPrev = new PairTable(6);
  private touchingCur = new PairTable(6);
  private triggerPrev = new PairTable(0);
  private triggerCur = new PairTable(0);
  private readonly disabledPairs = new PairTable(0);
  private readonly massScratch = new MassData();
  private readonly rayVisitor = new RayVisitor();
  private stepping = false;
  private readonly motionA = new SweptMotion();
  private readonly motionB = new SweptMotion();
  private readonly sweepResult = new SweepResult();
  private readonly vPredA = new Float64Array(3);
  private readonly vPredB = new Float64Array(3);
  private readonly candidates = new IntList(32);
  private readonly candidateVisitor = {
    list: null as IntList | null,
    onOverlap(slot: number): void {
      this.list!.push(slot);
    },
  };
  private readonly sweptBox = new Float64Array(12);
  /** TOI events of the post-solve pass: (time, body, other) triples, sorted before handling. */
  private toiTime = new Float64Array(16);
  private toiBody = new Int32Array(16);
  private toiOther = new Int32Array(16);
  private toiCount = 0;
  private toiOrder = new Int32Array(16);
  private clampedAt = new Float64Array(64);
  /** Pairs of Continuous dynamic bodies that had contacts this step (their meeting was solved). */
  private readonly continuousContactPairs = new PairTable(0);
  private stepDt = 0;
  /** @internal Set by an enabled WorldDebugView (debugView.ts): receives the step's sweeps and TOIs; null otherwise. */
  debugRecorder: SweepRecorder | null = null;
  /** @internal The contact solver, read (never written) by WorldDebugView. */
  get debugSolver(): ContactSolver {
    return this.solver;
  }

  constructor(settings: WorldSettings = {}) {
    const g = settings.gravity ?? { x: 0, y: -9.81, z: 0 };
    if (!isFiniteVec3(g)) throw new RangeError(`settings.gravity must be a finite vector, got ${fmtVec(g)}`);
    this.gx = g.x;
    this.gy = g.y;
    this.gz = g.z;
    this.substeps = positiveInt("settings.substeps", settings.substeps ?? 8);
    this.contactSpring = settings.contactSpring ?? { frequency: 60, dampingRatio: 10 };
    this.maximumRecoveryVelocity = settings.maximumRecoveryVelocity ?? 3;
    this.restitutionThreshold = settings.restitutionThreshold ?? 0.5;
    this.sleepingEnabled = settings.sleepingEnabled ?? true;
    this.sleepThreshold = settings.sleepThreshold ?? 0.05;
    this.timeToSleep = settings.timeToSleep ?? 0.5;
    this.maxLinearSpeed = settings.maxLinearSpeed ?? 200;
    this.maxAngularSpeed = settings.maxAngularSpeed ?? 100;
    this.pairMaterial = {
      friction: 0.5,
      staticFriction: 0.5,
      restitution: 0,
      restitutionThreshold: this.restitutionThreshold,
      spring: { frequency: this.contactSpring.frequency, dampingRatio: this.contactSpring.dampingRatio },
      maximumRecoveryVelocity: this.maximumRecoveryVelocity,
    };
    // Every field is rewritten by combineMaterial before use.
    this.childPairMaterial = { ...this.pairMaterial, spring: { ...this.pairMaterial.spring } };
    this.rayVisitor.world = this;
    // One bound function for the solver's wake requests (created once, not per call).
    this.joints = new JointSolver(this.bodies, (handle: number) => {
      const i = this.bodies.indexOf(handle);
      if (i >= 0) this.wakeIndex(i);
    });
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
    if (!isFiniteVec3(g)) throw new RangeError(`gravity must be a finite vector, got ${fmtVec(g)}`);
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
    if (!isFiniteVec3(p)) throw new RangeError(`position must be a finite vector, got ${fmtVec(p)}`);
    if (!isValidQuat(q)) throw new RangeError(`orientation must be a finite non-zero quaternion, got ${fmtQuat(q)}`);
    const v = desc.linearVelocity ?? { x: 0, y: 0, z: 0 };
    const w = desc.angularVelocity ?? { x: 0, y: 0, z: 0 };
    if (!isFiniteVec3(v)) throw new RangeError(`linearVelocity must be a finite vector, got ${fmtVec(v)}`);
    if (!isFiniteVec3(w)) throw new RangeError(`angularVelocity must be a finite vector, got ${fmtVec(w)}`);
    const col = desc.collidable ?? { shape: null };
    if (col.shape !== null && col.shape !== undefined && !(col.shape instanceof Shape)) {
      throw new TypeError(`collidable.shape must be a Shape or null, got ${String(col.shape)}`);
    }
    const density = desc.density ?? 1000;
    nonNegative("density", density);
    const cont = col.continuity ?? { mode: ContinuousDetectionMode.Passive, minimumSweepTimestep: 0, sweepConvergenceThreshold: 0 };
    validateContinuity(cont);
    const mMin = col.minimumSpeculativeMargin ?? 0;
    const mMax = col.maximumSpeculativeMargin ?? Infinity;
    validateMargins(mMin, mMax);
    const material = validateMaterial(surfaceMaterial(col.material ?? {}));
    const linDamp = desc.linearDamping ?? 0,
      angDamp = desc.angularDamping ?? 0,
      gf = desc.gravityFactor ?? 1;
    nonNegative("linearDamping", linDamp);
    nonNegative("angularDamping", angDamp);
    finite("gravityFactor", gf);
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
    this.childSurfaces.delete(handle);
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
    rot(qx, qy, qz, qw, c[i * 3], c[i * 3 + 1], c[i * 3 + 2], tmp3);
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
    if (!isFiniteVec3(position)) throw new RangeError(`setPose: position must be a finite vector, got ${fmtVec(position)}`);
    if (!isValidQuat(orientation)) {
      throw new RangeError(`setPose: orientation must be a finite non-zero quaternion, got ${fmtQuat(orientation)}`);
    }
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
    if (!isFiniteVec3(v)) throw new RangeError(`${method}: velocity must be a finite vector, got ${fmtVec(v)}`);
    if (this.bodies.motionType[i] === MotionType.Static) return;
    let { x, y, z } = v;
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > limit) {
      const s = limit / l;
      x *= s;
      y *= s;
      z *= s;
    }
    into[i * 3] = x;
    into[i * 3 + 1] = y;
    into[i * 3 + 2] = z;
    if (x !== 0 || y !== 0 || z !== 0) this.wakeIndex(i);
  }

  /** Applies an impulse (N s) at a world point (default: the centre of mass); wakes the body. */
  applyLinearImpulse(handle: number, impulse: Vec3Like, worldPoint?: Vec3Like): void {
    const i = this.index(handle, "applyLinearImpulse");
    if (!isFiniteVec3(impulse)) throw new RangeError(`applyLinearImpulse: impulse must be a finite vector, got ${fmtVec(impulse)}`);
    if (worldPoint !== undefined && !isFiniteVec3(worldPoint)) {
      throw new RangeError(`applyLinearImpulse: worldPoint must be a finite vector, got ${fmtVec(worldPoint)}`);
    }
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
    if (!isFiniteVec3(impulse)) throw new RangeError(`applyAngularImpulse: impulse must be a finite vector, got ${fmtVec(impulse)}`);
    if (this.bodies.motionType[i] !== MotionType.Dynamic) return;
    this.addAngularImpulse(i, impulse.x, impulse.y, impulse.z);
    this.clampSpeed(i);
    this.wakeIndex(i);
  }

  /** Adds a force (N) at a world point (default: the centre of mass) for the next step; wakes the body. */
  applyForce(handle: number, force: Vec3Like, worldPoint?: Vec3Like): void {
    const i = this.index(handle, "applyForce");
    if (!isFiniteVec3(force)) throw new RangeError(`applyForce: force must be a finite vector, got ${fmtVec(force)}`);
    if (worldPoint !== undefined && !isFiniteVec3(worldPoint)) {
      throw new RangeError(`applyForce: worldPoint must be a finite vector, got ${fmtVec(worldPoint)}`);
    }
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
    if (!isFiniteVec3(torque)) throw new RangeError(`applyTorque: torque must be a finite vector, got ${fmtVec(torque)}`);
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
    if (!isFiniteVec3(position)) throw new RangeError(`moveKinematic: position must be a finite vector, got ${fmtVec(position)}`);
    if (!isValidQuat(orientation)) {
      throw new RangeError(`moveKinematic: orientation must be a finite non-zero quaternion, got ${fmtQuat(orientation)}`);
    }
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
    rot(tx, ty, tz, tw, b.localCom[i * 3], b.localCom[i * 3 + 1], b.localCom[i * 3 + 2], tmp3);
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
    if (b.flags[i] & BodyFlag.ChildSurfaces) this.setChildSurfaces(handle, null);
    // Last step's manifolds of this body were made for the old shape: not to be reused.
    this.solver.forgetBody(handle);
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
    nonNegative("density", density);
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
    nonNegative("density", density);
    const md = computeMassData(shape, density, this.massScratch);
    return massDataToProperties(md, shape === null);
  }

  getLinearDamping(handle: number): number {
    return this.bodies.linDamp[this.index(handle, "getLinearDamping")];
  }
  setLinearDamping(handle: number, d: number): void {
    const i = this.index(handle, "setLinearDamping");
    nonNegative("linearDamping", d);
    this.bodies.linDamp[i] = d;
  }
  getAngularDamping(handle: number): number {
    return this.bodies.angDamp[this.index(handle, "getAngularDamping")];
  }
  setAngularDamping(handle: number, d: number): void {
    const i = this.index(handle, "setAngularDamping");
    nonNegative("angularDamping", d);
    this.bodies.angDamp[i] = d;
  }
  getGravityFactor(handle: number): number {
    return this.bodies.gravityFactor[this.index(handle, "getGravityFactor")];
  }
  setGravityFactor(handle: number, f: number): void {
    const i = this.index(handle, "setGravityFactor");
    finite("gravityFactor", f);
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
   * reports trigger events instead of contacts. The body's own filter still gates the pair as a whole (set it
   * to cover every child). Cleared by setShape, whose child numbering may differ.
   */
  setChildSurfaces(handle: number, surfaces: readonly ChildSurfaceDescription[] | null): void {
    const i = this.index(handle, "setChildSurfaces");
    if (surfaces === null) {
      this.childSurfaces.delete(handle);
      this.bodies.flags[i] &= ~BodyFlag.ChildSurfaces;
      return;
    }
    this.childSurfaces.set(handle, toChildSurfaces(surfaces, (m) => validateMaterial(surfaceMaterial({ ...m }))));
    this.bodies.flags[i] |= BodyFlag.ChildSurfaces;
  }
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
    this.originPose(i, this.poseA);
    if (s === null) {
      out[0] = out[3] = this.poseA.px;
      out[1] = out[4] = this.poseA.py;
      out[2] = out[5] = this.poseA.pz;
    } else s.computeAabb(this.poseA, out, 0);
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
    this.castTrees(v, maxDistance);
    if (v.best < 0) return false;
    this.fillResult(v, v.best, v.bestT, v.bestNormal[0], v.bestNormal[1], v.bestNormal[2], v.bestChild, out);
    return true;
  }

  /** Every hit of the ray, sorted by distance (then by body handle), written into out (grown as needed). */
  raycastAll(origin: Vec3Like, direction: Vec3Like, maxDistance: number, filter: RayFilter, out: RayResult[]): number {
    const v = this.prepareRay(origin, direction, maxDistance, filter);
    v.all = out;
    v.allCount = 0;
    this.castTrees(v, maxDistance);
    const n = v.allCount;
    const sorted = out.slice(0, n).sort((a, b) => a.distance - b.distance || a.body - b.body);
    for (let k = 0; k < n; k++) out[k] = sorted[k];
    v.all = null;
    return n;
  }

  private prepareRay(origin: Vec3Like, direction: Vec3Like, maxDistance: number, filter: RayFilter): RayVisitor {
    if (!isFiniteVec3(origin)) throw new RangeError(`raycast: origin must be a finite vector, got ${fmtVec(origin)}`);
    if (!isFiniteVec3(direction)) throw new RangeError(`raycast: direction must be a finite vector, got ${fmtVec(direction)}`);
    if (!(maxDistance >= 0)) throw new RangeError(`raycast: maxDistance must be >= 0, got ${String(maxDistance)}`);
    const l = Math.sqrt(direction.x * direction.x + direction.y * direction.y + direction.z * direction.z);
    if (!(l > 0)) throw new RangeError(`raycast: direction must be non-zero, got ${fmtVec(direction)}`);
    const v = this.rayVisitor;
    v.ox = origin.x;
    v.oy = origin.y;
    v.oz = origin.z;
    v.dx = direction.x / l;
    v.dy = direction.y / l;
    v.dz = direction.z / l;
    v.filter = filter;
    v.best = -1;
    v.bestT = maxDistance;
    return v;
  }

  private castTrees(v: RayVisitor, maxDistance: number): void {
    if (maxDistance === Infinity) maxDistance = 1e30;
    v.bestT = maxDistance;
    this.movingTree.raycast(v.ox, v.oy, v.oz, v.dx, v.dy, v.dz, maxDistance, v);
    this.staticTree.raycast(v.ox, v.oy, v.oz, v.dx, v.dy, v.dz, v.all ? maxDistance : v.bestT, v);
  }

  /** @internal Ray visitor callback: tests one body. */
  _rayLeaf(v: RayVisitor, slot: number, maxT: number): number {
    const b = this.bodies;
    const i = b.slotToDense[slot];
    if (i < 0) return maxT;
    const f = v.filter;
    const h = b.handle[i];
    if (f.ignoreBody !== undefined && f.ignoreBody === h) return maxT;
    if (!f.hitTriggers && b.flags[i] & BodyFlag.Trigger) return maxT;
    const mem = (f.membership ?? -1) | 0,
      col = (f.collideWith ?? -1) | 0;
    if ((mem & b.collideWith[i]) === 0 || (b.membership[i] & col) === 0) return maxT;
    const shape = b.shape[i];
    if (shape === null) return maxT;
    this.originPose(i, this.poseB);
    const limit = v.all ? v.bestT : maxT;
    if (!rayCastShape(shape, this.poseB, v.ox, v.oy, v.oz, v.dx, v.dy, v.dz, limit, v.hit)) return maxT;
    if (v.all) {
      if (v.allCount === v.all.length) v.all.push(new RayResult());
      this.fillResult(v, i, v.hit.t, v.hit.normalX, v.hit.normalY, v.hit.normalZ, v.hit.childIndex, v.all[v.allCount++]);
      return maxT;
    }
    if (v.hit.t < v.bestT) {
      v.best = i;
      v.bestT = v.hit.t;
      v.bestNormal[0] = v.hit.normalX;
      v.bestNormal[1] = v.hit.normalY;
      v.bestNormal[2] = v.hit.normalZ;
      v.bestChild = v.hit.childIndex;
    }
    return v.bestT;
  }

  private fillResult(v: RayVisitor, i: number, t: number, nx: number, ny: number, nz: number, child: number, out: RayResult): void {
    out.body = this.bodies.handle[i];
    out.distance = t;
    out.point.x = v.ox + v.dx * t;
    out.point.y = v.oy + v.dy * t;
    out.point.z = v.oz + v.dz * t;
    out.normal.x = nx;
    out.normal.y = ny;
    out.normal.z = nz;
    out.childIndex = child;
  }

  // ---------------------------------------------------------------- the step

  /** Advances the world by dt seconds. */
  step(dt: number): void {
    if (typeof dt !== "number" || !Number.isFinite(dt) || dt < 0) {
      throw new RangeError(`step: dt must be a finite number >= 0, got ${String(dt)}`);
    }
    if (this.stepping) throw new Error("step: the world is already stepping (step called from inside a callback)");
    this.stepping = true;
    try {
      this.contactEvents.clear();
      this.triggerEvents.clear();
      if (dt === 0) return;
      if (this.debugRecorder !== null) this.debugRecorder.beginStep(this.bodies.count);
      if (this.joints.count > 0) this.wakeJointedSleepers(dt);
      this.buildActiveList();
      this.predict(dt);
      this.broadPhase(dt);
      this.stepDt = dt;
      this.narrowPhase();
      this.solve(dt);
      this.continuousPass(dt);
      this.guardNonFinite();
      this.finishStep(dt);
    } finally {
      this.stepping = false;
    }
  }

  /** 1. The awake bodies that move, in storage order (deterministic). */
  private buildActiveList(): void {
    const b = this.bodies;
    const a = this.active;
    a.clear();
    for (let i = 0; i < b.count; i++) {
      if (b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0) a.push(i);
    }
  }

  /**
   * 2-3. Predict: the swept transform's t0 pose, world inertia, the gyroscopic term, then each body's
   * speculative margin and velocity-expanded bounds (bepu BoundingBoxBatcher).
   */
  private predict(dt: number): void {
    const ids = this.active.data;
    const sc = this.stepScalars;
    sc[0] = dt;
    sc[1] = this.gx;
    sc[2] = this.gy;
    sc[3] = this.gz;
    sc[4] = this.maxLinearSpeed;
    sc[5] = this.maxAngularSpeed;
    for (let k = 0; k < this.active.count; k++) this.predictBody(ids[k]);
  }

  /** Scalars of the current step read by per-body methods (dt, gravity, speed limits), so those take only an index. */
  private readonly stepScalars = new Float64Array(6);
  private readonly boundsIO = new Float64Array(4);
  private readonly combineScratch = new Float64Array(9);

  /** predict() for one body; reads dt and gravity from stepScalars. */
  private predictBody(i: number): void {
    const b = this.bodies;
    const sc = this.stepScalars;
    const dt = sc[0];
    const i3 = i * 3,
      i4 = i * 4;
    b.pos0[i3] = b.pos[i3];
    b.pos0[i3 + 1] = b.pos[i3 + 1];
    b.pos0[i3 + 2] = b.pos[i3 + 2];
    b.rot0[i4] = b.rot[i4];
    b.rot0[i4 + 1] = b.rot[i4 + 1];
    b.rot0[i4 + 2] = b.rot[i4 + 2];
    b.rot0[i4 + 3] = b.rot[i4 + 3];
    updateWorldInertia(b, i);
    const dynamic = b.motionType[i] === MotionType.Dynamic;
    if (dynamic) {
      clampSpeeds(b, i, sc);
      integrateGyroscopic(b, i, sc);
    }
    // Velocity expected over the step: gravity and user forces included (bepu predicts after them).
    let vx = b.vel[i3],
      vy = b.vel[i3 + 1],
      vz = b.vel[i3 + 2];
    if (dynamic) {
      const m = b.invMass[i];
      const gf = m > 0 ? b.gravityFactor[i] * dt : 0;
      vx += gf * sc[1] + dt * m * b.force[i3];
      vy += gf * sc[2] + dt * m * b.force[i3 + 1];
      vz += gf * sc[3] + dt * m * b.force[i3 + 2];
    }
    const shape = b.shape[i];
    if (shape === null) {
      // A shapeless body has no pairs; its margin is its minimum.
      b.margin[i] = b.marginMin[i];
      return;
    }
    this.originPose(i, this.poseA);
    shape.computeAabb(this.poseA, b.aabb, i * 6);
    const io = this.boundsIO;
    io[0] = dt;
    io[1] = vx;
    io[2] = vy;
    io[3] = vz;
    predictBodyBounds(b, i, io, b.continuity[i] === ContinuousDetectionMode.Discrete);
    if (b.tree[i] === TREE_MOVING) this.movingTree.setLeafAabbFrom(b.proxy[i], b.aabb, i * 6);
  }

  /** 4. Broad phase: refit the moving tree, collect moving x moving and moving x static pairs; wake sleepers touched. */
  private broadPhase(dt: number): void {
    const tree = this.movingTree;
    tree.refit();
    const leaves = tree.leafCount;
    if (leaves > 0) tree.refine(Math.max(1, Math.ceil(leaves / 20)));
    for (let pass = 0; pass < 4; pass++) {
      const pairs = this.collector.pairs;
      pairs.clear();
      tree.selfOverlaps(this.collector);
      tree.overlapsWith(this.staticTree, this.collector);
      if (!this.wakeTouchedSleepers()) break;
      // Woken bodies joined the active list and the moving tree: predict them and collect again.
      this.buildActiveList();
      this.predict(dt);
      tree.refit();
    }
  }

  /** Wakes sleeping islands that a moving dynamic or kinematic body's bounds overlap. Returns true if any woke. */
  private wakeTouchedSleepers(): boolean {
    const b = this.bodies;
    const p = this.collector.pairs;
    let woke = false;
    for (let k = 0; k < p.count; k += 2) {
      const ia = b.slotToDense[p.data[k]],
        ib = b.slotToDense[p.data[k + 1]];
      const sa = (b.flags[ia] & BodyFlag.Sleeping) !== 0,
        sb = (b.flags[ib] & BodyFlag.Sleeping) !== 0;
      if (sa === sb) continue;
      const sleeper = sa ? ia : ib,
        mover = sa ? ib : ia;
      if (!this.shouldCollide(mover, sleeper)) continue;
      if ((b.flags[mover] | b.flags[sleeper]) & BodyFlag.Trigger) continue;
      this.wakeIndex(sleeper);
      woke = true;
    }
    return woke;
  }

  private shouldCollide(i: number, j: number): boolean {
    const b = this.bodies;
    if ((b.membership[i] & b.collideWith[j]) === 0 || (b.membership[j] & b.collideWith[i]) === 0) return false;
    const ha = b.handle[i],
      hb = b.handle[j];
    if (this.disabledPairs.count > 0) {
      if (ha < hb ? this.disabledPairs.find(ha, hb) >= 0 : this.disabledPairs.find(hb, ha) >= 0) return false;
    }
    if (this.joints.count > 0 && this.joints.isCollisionDisabled(ha, hb)) return false;
    return true;
  }

  /** 5. Narrow phase: manifolds (speculative within the pair margin) into the solver; trigger overlaps. */
  private narrowPhase(): void {
    const b = this.bodies;
    const p = this.collector.pairs;
    const solver = this.solver;
    solver.beginStep();
    this.stats.sweeps = 0;
    this.stats.toiChecks = 0;
    this.stats.toiEvents = 0;
    this.continuousContactPairs.clear();
    const trig = this.triggerPrev;
    this.triggerPrev = this.triggerCur;
    this.triggerCur = trig;
    this.triggerCur.clear();
    let contacts = 0,
      speculative = 0,
      pairCount = 0;
    const mb = this.manifolds;
    for (let k = 0; k < p.count; k += 2) {
      let ia = b.slotToDense[p.data[k]],
        ib = b.slotToDense[p.data[k + 1]];
      const ta = b.motionType[ia],
        tb = b.motionType[ib];
      const trigger = ((b.flags[ia] | b.flags[ib]) & BodyFlag.Trigger) !== 0;
      // Trigger children of compounds (Havok's trigger shapes in a container) sense like trigger bodies.
      const childTriggers = triggerChildCount(b.shape[ia]) + triggerChildCount(b.shape[ib]) > 0;
      const solid = ta === MotionType.Dynamic || tb === MotionType.Dynamic;
      if (!solid && !trigger && !childTriggers) continue;
      if (!this.shouldCollide(ia, ib)) continue;
      // Order: a static (or the non-moving) body is B; otherwise the smaller handle is A.
      if (ta === MotionType.Static || (tb !== MotionType.Static && b.handle[ia] > b.handle[ib])) {
        const t = ia;
        ia = ib;
        ib = t;
      }
      const shapeA = b.shape[ia]!,
        shapeB = b.shape[ib]!;
      this.originPose(ia, this.poseA);
      this.originPose(ib, this.poseB);
      pairCount++;
      mb.clear();
      if (trigger) {
        collideShapes(shapeA, this.poseA, shapeB, this.poseB, 0, mb);
        let overlap = false;
        for (let m = 0; m < mb.count && !overlap; m++) {
          const man = mb.items[m];
          for (let c = 0; c < man.count; c++) if (man.depth[c] >= 0) overlap = true;
        }
        if (overlap) this.triggerCur.insert(b.handle[ia], b.handle[ib]);
        continue;
      }
      const margin = b.margin[ia] + b.margin[ib];
      const sweepT = this.sweepPair(ia, ib, shapeA, shapeB);
      // The sweep proved they do not meet this step: no ghost contacts (sweeps skip trigger children, so
      // those still need their overlap test).
      if (sweepT < 0 && !childTriggers) continue;
      const split = ((b.flags[ia] | b.flags[ib]) & BodyFlag.ChildSurfaces) !== 0;
      // Two convex shapes, no trigger children and no child surfaces: the contact cache may keep last step's
      // manifold (ContactSolver.findReusable). A compound's manifolds go through the child loop below.
      const convexPair = shapeA.type <= ShapeType.ConvexHull && shapeB.type <= ShapeType.ConvexHull && !childTriggers && !split;
      const reuse = convexPair && sweepT === 0 ? solver.findReusable(b, ia, ib) : -1;
      if (reuse < 0) {
        if (sweepT > 0) {
          // Contacts at the poses of the time of impact (bepu: pick t1, then rewind the depths).
          this.motionA.poseAt(sweepT, this.poseA);
          this.motionB.poseAt(sweepT, this.poseB);
        }
        mb.margin = margin;
        collideShapesInto(shapeA, this.poseA, shapeB, this.poseB, mb);
        if (mb.count === 0) continue;
        if (sweepT > 0) this.rewindManifolds(mb, sweepT);
      }
      const mat = this.combineMaterial(ia, ib, b.material[ia], b.material[ib], this.pairMaterial);
      if (
        b.continuity[ia] === ContinuousDetectionMode.Continuous &&
        b.continuity[ib] === ContinuousDetectionMode.Continuous &&
        ta === MotionType.Dynamic &&
        tb === MotionType.Dynamic
      ) {
        const ha = b.handle[ia],
          hb = b.handle[ib];
        if (ha < hb) this.continuousContactPairs.insert(ha, hb);
        else this.continuousContactPairs.insert(hb, ha);
      }
      if (reuse >= 0) {
        contacts += solver.reuse(b, ia, ib, reuse, mat);
        continue;
      }
      // A convex pair's single manifold (at t0 poses) is what the cache may reuse next step.
      const reusable = convexPair && sweepT === 0 && mb.count === 1;
      for (let m = 0; m < mb.count; m++) {
        const man = mb.items[m];
        if (man.count === 0) continue;
        if (childTriggers) {
          if (isTriggerChild(shapeA, man.childA) || isTriggerChild(shapeB, man.childB)) {
            for (let c = 0; c < man.count; c++) {
              if (man.depth[c] >= 0) {
                this.triggerCur.insert(b.handle[ia], b.handle[ib]);
                break;
              }
            }
            continue;
          }
          if (!solid) continue;
        }
        const mm = split ? this.childManifoldMaterial(ia, ib, man, mat) : mat;
        if (mm === null) continue;
        // Each contact's point on the faster-turning body, so a fast spin cannot carry its feature through
        // a speculative contact unseen (contactAnchors.ts).
        anchorOnFasterTurningBody(b, ia, ib, man);
        solver.add(b, ia, ib, man, mm, reusable);
        contacts += man.count;
        for (let c = 0; c < man.count; c++) if (man.depth[c] < 0) speculative++;
      }
    }
    this.stats.pairs = pairCount;
    this.stats.manifolds = solver.count;
    this.stats.contacts = contacts;
    this.stats.speculativeContacts = speculative + solver.speculativeReused;
  }

  /**
   * The sweep gate and test for a pair with a Continuous body (bepu NarrowPhase.AddBatchEntries and
   * ConvexSweepTaskCommon): only when the relative motion over the step, (|wA| rA + |wB| rB + |vB - vA|) dt,
   * exceeds the pair's speculative margin. Returns 0 when no sweep is needed (contacts at t0), the time of
   * impact t1 > 0 on a hit, or -1 when the sweep proved the pair does not meet this step.
   */
  private sweepPair(ia: number, ib: number, shapeA: Shape, shapeB: Shape): number {
    const b = this.bodies;
    const margin = b.margin[ia] + b.margin[ib];
    const contA = b.continuity[ia] === ContinuousDetectionMode.Continuous,
      contB = b.continuity[ib] === ContinuousDetectionMode.Continuous;
    if (!contA && !contB) return 0;
    // Triangle shape pairs collide without a sweep (README), so such a pair has nothing to sweep.
    if (isTriangleShape(shapeA) && isTriangleShape(shapeB)) return 0;
    const dt = this.stepDt;
    const va = this.vPredA,
      vb = this.vPredB;
    this.predictedVelocity(ia, dt, va);
    this.predictedVelocity(ib, dt, vb);
    const i3 = ia * 3,
      j3 = ib * 3;
    // Lengths written out: Math.hypot is a builtin call that returns a heap number.
    const w = b.angVel;
    const wa = this.isMoving(ia) ? Math.sqrt(w[i3] * w[i3] + w[i3 + 1] * w[i3 + 1] + w[i3 + 2] * w[i3 + 2]) : 0;
    const wb = this.isMoving(ib) ? Math.sqrt(w[j3] * w[j3] + w[j3 + 1] * w[j3 + 1] + w[j3 + 2] * w[j3 + 2]) : 0;
    const rx = vb[0] - va[0],
      ry = vb[1] - va[1],
      rz = vb[2] - va[2];
    const rel = Math.sqrt(rx * rx + ry * ry + rz * rz) + wa * b.radius[ia] + wb * b.radius[ib];
    if (rel * dt <= margin) return 0;
    this.setVelocityMotion(ia, va, this.motionA);
    this.setVelocityMotion(ib, vb, this.motionB);
    const minStep = Math.min(contA ? b.sweepMinStep[ia] : Infinity, contB ? b.sweepMinStep[ib] : Infinity);
    const conv = Math.min(contA ? b.sweepConvergence[ia] : Infinity, contB ? b.sweepConvergence[ib] : Infinity);
    this.stats.sweeps++;
    const res = this.sweepResult;
    if (!sweepShapes(shapeA, this.motionA, shapeB, this.motionB, dt, minStep, conv, res)) return -1;
    if (this.debugRecorder !== null) this.debugRecorder.onSweepHit(b, ia, ib, this.motionA, this.motionB, res.t1, dt);
    return res.t1;
  }

  /**
   * Expresses contacts found at time t back at t0 (bepu NarrowPhaseCCDContinuations): depths grow by the
   * approach the relative velocity makes over t (so the solver lets the bodies close exactly that gap), and
   * positions move back with A so the lever arms refer to the t0 poses.
   */
  private rewindManifolds(mb: ManifoldBuffer, t: number): void {
    const ma = this.motionA,
      mbo = this.motionB;
    const cax = ma.comX + ma.vx * t,
      cay = ma.comY + ma.vy * t,
      caz = ma.comZ + ma.vz * t;
    const cbx = mbo.comX + mbo.vx * t,
      cby = mbo.comY + mbo.vy * t,
      cbz = mbo.comZ + mbo.vz * t;
    for (let m = 0; m < mb.count; m++) {
      const man = mb.items[m];
      const nx = man.normalX,
        ny = man.normalY,
        nz = man.normalZ;
      for (let c = 0; c < man.count; c++) {
        const px = man.positionX[c],
          py = man.positionY[c],
          pz = man.positionZ[c];
        const rax = px - cax,
          ray = py - cay,
          raz = pz - caz;
        const rbx = px - cbx,
          rby = py - cby,
          rbz = pz - cbz;
        const vax = ma.vx + (ma.wy * raz - ma.wz * ray),
          vay = ma.vy + (ma.wz * rax - ma.wx * raz),
          vaz = ma.vz + (ma.wx * ray - ma.wy * rax);
        const vbx = mbo.vx + (mbo.wy * rbz - mbo.wz * rby),
          vby = mbo.vy + (mbo.wz * rbx - mbo.wx * rbz),
          vbz = mbo.vz + (mbo.wx * rby - mbo.wy * rbx);
        const vn = (vbx - vax) * nx + (vby - vay) * ny + (vbz - vaz) * nz;
        man.depth[c] += vn * t;
        man.positionX[c] = px - ma.vx * t;
        man.positionY[c] = py - ma.vy * t;
        man.positionZ[c] = pz - ma.vz * t;
      }
    }
  }

  /** True for awake non-static bodies (the ones that move this step). */
  private isMoving(i: number): boolean {
    const b = this.bodies;
    return b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0;
  }

  /** The velocity a body is expected to have over the step (gravity and forces included), 0 if it does not move. */
  private predictedVelocity(i: number, dt: number, out: Float64Array): void {
    const b = this.bodies;
    if (!this.isMoving(i)) {
      out[0] = out[1] = out[2] = 0;
      return;
    }
    const i3 = i * 3;
    out[0] = b.vel[i3];
    out[1] = b.vel[i3 + 1];
    out[2] = b.vel[i3 + 2];
    if (b.motionType[i] === MotionType.Dynamic) {
      const m = b.invMass[i];
      const gf = m > 0 ? b.gravityFactor[i] * dt : 0;
      out[0] += gf * this.gx + dt * m * b.force[i3];
      out[1] += gf * this.gy + dt * m * b.force[i3 + 1];
      out[2] += gf * this.gz + dt * m * b.force[i3 + 2];
    }
  }

  private setVelocityMotion(i: number, v: Float64Array, out: SweptMotion): void {
    const b = this.bodies;
    const i3 = i * 3,
      i4 = i * 4;
    const moving = this.isMoving(i);
    out.setVelocity(
      b.pos[i3],
      b.pos[i3 + 1],
      b.pos[i3 + 2],
      b.rot[i4],
      b.rot[i4 + 1],
      b.rot[i4 + 2],
      b.rot[i4 + 3],
      v[0],
      v[1],
      v[2],
      moving ? b.angVel[i3] : 0,
      moving ? b.angVel[i3 + 1] : 0,
      moving ? b.angVel[i3 + 2] : 0,
      b.localCom[i3],
      b.localCom[i3 + 1],
      b.localCom[i3 + 2],
    );
  }

  /** A body's motion over the step as a swept transform from its t0 pose to its current pose (Havok). */
  private setEndpointMotion(i: number, out: SweptMotion): void {
    const b = this.bodies;
    const i3 = i * 3,
      i4 = i * 4;
    out.setEndpoints(
      b.pos0[i3],
      b.pos0[i3 + 1],
      b.pos0[i3 + 2],
      b.rot0[i4],
      b.rot0[i4 + 1],
      b.rot0[i4 + 2],
      b.rot0[i4 + 3],
      b.pos[i3],
      b.pos[i3 + 1],
      b.pos[i3 + 2],
      b.rot[i4],
      b.rot[i4 + 1],
      b.rot[i4 + 2],
      b.rot[i4 + 3],
      b.localCom[i3],
      b.localCom[i3 + 1],
      b.localCom[i3 + 2],
    );
  }

  /**
   * 8. TOI handling (Havok's swept transforms and TOI events; docs/design.md step 8): a fast Continuous body's solved
   * motion t0 -> t1 is swept against static and kinematic bodies and other Continuous bodies. A time of
   * impact the solve did not prevent (a secondary collision) moves the body back to its pose at that time,
   * keeping its velocity (the rest of the motion is lost, as in Box2D). Events are handled in time order.
   */
  private continuousPass(dt: number): void {
    const b = this.bodies;
    const ids = this.active.data;
    this.toiCount = 0;
    for (let k = 0; k < this.active.count; k++) {
      const i = ids[k];
      if (b.continuity[i] !== ContinuousDetectionMode.Continuous || b.motionType[i] !== MotionType.Dynamic) continue;
      if (b.flags[i] & BodyFlag.Trigger) continue;
      const shape = b.shape[i];
      if (shape === null) continue;
      // Only bodies that moved a good part of their own size can have passed through something.
      const i3 = i * 3,
        i4 = i * 4;
      const ddx = b.pos[i3] - b.pos0[i3],
        ddy = b.pos[i3 + 1] - b.pos0[i3 + 1],
        ddz = b.pos[i3 + 2] - b.pos0[i3 + 2];
      const disp = Math.sqrt(ddx * ddx + ddy * ddy + ddz * ddz);
      const dq =
        Math.abs(b.rot[i4] * b.rot0[i4] + b.rot[i4 + 1] * b.rot0[i4 + 1] + b.rot[i4 + 2] * b.rot0[i4 + 2] + b.rot[i4 + 3] * b.rot0[i4 + 3]);
      const angularTravel = 2 * Math.sqrt(Math.max(0, 1 - dq * dq)) * b.radius[i];
      const minRadius = Math.max(b.radius[i] - b.angExpansion[i], 1e-3);
      if (disp + angularTravel <= 0.5 * minRadius) continue;
      // Candidates: bodies overlapping the bounds of the whole motion.
      this.setEndpointMotion(i, this.motionA);
      const box = this.sweptBox;
      this.motionA.poseAt(0, this.poseA);
      shape.computeAabb(this.poseA, box, 0);
      this.motionA.poseAt(1, this.poseA);
      shape.computeAabb(this.poseA, box, 6);
      const minX = Math.min(box[0], box[6]),
        minY = Math.min(box[1], box[7]),
        minZ = Math.min(box[2], box[8]);
      const maxX = Math.max(box[3], box[9]),
        maxY = Math.max(box[4], box[10]),
        maxZ = Math.max(box[5], box[11]);
      const cand = this.candidates;
      cand.clear();
      this.candidateVisitor.list = cand;
      this.staticTree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, this.candidateVisitor);
      this.movingTree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, this.candidateVisitor);
      const minStep = b.sweepMinStep[i] / dt,
        conv = b.sweepConvergence[i] / dt;
      for (let c = 0; c < cand.count; c++) {
        const j = b.slotToDense[cand.data[c]];
        if (j < 0 || j === i) continue;
        if (b.flags[j] & BodyFlag.Trigger) continue;
        const tj = b.motionType[j];
        const otherContinuous = tj === MotionType.Dynamic && b.continuity[j] === ContinuousDetectionMode.Continuous;
        if (tj === MotionType.Dynamic && !otherContinuous && (b.flags[j] & BodyFlag.Sleeping) === 0) continue;
        if (otherContinuous && j < i && this.isMoving(j)) continue; // the pair is handled once, from the lower index
        if (otherContinuous) {
          // Two Continuous bodies that had contacts this step met in the solver: only unseen meetings count.
          const ha = b.handle[i],
            hb = b.handle[j];
          if ((ha < hb ? this.continuousContactPairs.find(ha, hb) : this.continuousContactPairs.find(hb, ha)) >= 0) continue;
        }
        if (!this.shouldCollide(i, j)) continue;
        const other = b.shape[j];
        if (other === null || (isTriangleShape(shape) && isTriangleShape(other))) continue;
        if (this.isMoving(j)) this.setEndpointMotion(j, this.motionB);
        else {
          this.originPose(j, this.poseB);
          const pb = this.poseB;
          this.motionB.setStatic(pb.px, pb.py, pb.pz, pb.qx, pb.qy, pb.qz, pb.qw);
        }
        this.setEndpointMotion(i, this.motionA);
        this.stats.toiChecks++;
        const res = this.sweepResult;
        if (!sweepShapeLinear(shape, this.motionA, other, this.motionB, minStep, conv, res)) continue;
        // A hit at the very end of the motion, within round-off, is a body the solve left flush against the
        // other, not one through it (a sphere stopped flush at a wall's face got t0 = 1 - 1e-16 with one
        // summation order of the solver and no hit with another).
        if (res.t0 >= 1 - 1e-12) continue;
        if (!(res.t0 > 0)) {
          // A hit at 0 is a contact the body started in. Resting or sliding there is the solver's business;
          // but a body that starts touching and is driven deep into the other one (pushed by a third body,
          // the case bepu's documentation says speculative contacts miss) stays where it started.
          const into =
            (b.pos[i3] - b.pos0[i3]) * res.normalX + (b.pos[i3 + 1] - b.pos0[i3 + 1]) * res.normalY + (b.pos[i3 + 2] - b.pos0[i3 + 2]) * res.normalZ;
          if (into <= 0.1 * minRadius) continue;
        }
        this.addToi(Math.max(0, res.t0), i, otherContinuous ? j : -1);
      }
    }
    if (this.toiCount === 0) return;
    // Earliest first; ties by body index (deterministic).
    const n = this.toiCount;
    const order = this.toiOrder;
    for (let k = 0; k < n; k++) order[k] = k;
    const tt = this.toiTime,
      tb = this.toiBody;
    order.subarray(0, n).sort((x, y) => tt[x] - tt[y] || tb[x] - tb[y] || x - y);
    if (this.clampedAt.length < b.count) this.clampedAt = new Float64Array(Math.max(b.count, this.clampedAt.length * 2));
    const clamped = this.clampedAt;
    for (let k = 0; k < n; k++) {
      clamped[tb[order[k]]] = 2;
      const o = this.toiOther[order[k]];
      if (o >= 0) clamped[o] = 2;
    }
    for (let k = 0; k < n; k++) {
      const e = order[k];
      const t = tt[e],
        i = tb[e],
        j = this.toiOther[e];
      if (clamped[i] <= 1 || (j >= 0 && clamped[j] <= 1)) continue; // already moved back to an earlier time
      if (this.debugRecorder !== null) {
        this.debugRecorder.onToiClamp(b, i, t);
        if (j >= 0) this.debugRecorder.onToiClamp(b, j, t);
      }
      this.moveToFraction(i, t);
      clamped[i] = t;
      this.toiQueue.push(i);
      if (j >= 0) {
        this.moveToFraction(j, t);
        clamped[j] = t;
        this.toiQueue.push(j);
      }
      this.stats.toiEvents++;
    }
    this.propagateToi(dt);
  }

  private readonly toiQueue = new IntList(16);

  /** Numerical guard: a moving body whose state is no longer finite is put back and put to rest. */
  private guardNonFinite(): void {
    const b = this.bodies;
    const ids = this.active.data;
    if (this.nonFiniteBodies.length > 0) this.nonFiniteBodies.length = 0;
    this.stats.nonFiniteBodies = 0;
    for (let k = 0; k < this.active.count; k++) {
      const i = ids[k];
      const i3 = i * 3,
        i4 = i * 4;
      // One sum per body: any NaN or infinity makes it non-finite.
      const sum =
        b.pos[i3] + b.pos[i3 + 1] + b.pos[i3 + 2] + b.rot[i4] + b.rot[i4 + 1] + b.rot[i4 + 2] + b.rot[i4 + 3] +
        b.vel[i3] + b.vel[i3 + 1] + b.vel[i3 + 2] + b.angVel[i3] + b.angVel[i3 + 1] + b.angVel[i3 + 2];
      if (Number.isFinite(sum) && (b.flags[i] & BodyFlag.NonFinite) === 0) continue;
      b.flags[i] &= ~BodyFlag.NonFinite;
      for (let c = 0; c < 3; c++) {
        b.pos[i3 + c] = b.pos0[i3 + c];
        b.vel[i3 + c] = 0;
        b.angVel[i3 + c] = 0;
        b.force[i3 + c] = 0;
        b.torque[i3 + c] = 0;
      }
      for (let c = 0; c < 4; c++) b.rot[i4 + c] = b.rot0[i4 + c];
      updateWorldInertia(b, i);
      this.nonFiniteBodies.push(b.handle[i]);
      this.stats.nonFiniteBodies++;
    }
    // A non-finite body's contact impulses also reached the static bodies it touched (the solver adds
    // 0 x impulse to their velocity, and 0 x NaN is NaN); static bodies never move, so their velocity is 0.
    if (this.nonFiniteBodies.length > 0) {
      for (let i = 0; i < b.count; i++) {
        if (b.motionType[i] !== MotionType.Static) continue;
        b.vel.fill(0, i * 3, i * 3 + 3);
        b.angVel.fill(0, i * 3, i * 3 + 3);
      }
    }
    // Sleeping keeps them at rest until something touches them (outside the loop: it edits the trees).
    for (const h of this.nonFiniteBodies) {
      const i = b.indexOf(h);
      if (i >= 0 && (b.flags[i] & BodyFlag.Sleeping) === 0) this.sleepBodies([i], 1);
    }
  }

  /**
   * A body moved back to its time of impact may now overlap bodies that it pushed (or that pushed it)
   * during the solve: each dynamic contact partner of a moved body is swept along its own motion against the
   * moved body's new pose and moved back to where they meet, in turn (Havok's TOI loop re-collides the
   * bodies an event touches). Bounded: every body moves back at most a few times.
   */
  private propagateToi(dt: void | number): void {
    void dt;
    const b = this.bodies;
    const q = this.toiQueue;
    const hd = this.solver.header;
    const count = this.solver.count;
    let budget = 64 + 4 * q.count;
    while (q.count > 0 && budget-- > 0) {
      const i = q.pop();
      const si = b.shape[i];
      if (si === null) continue;
      this.originPose(i, this.poseB);
      const pb = this.poseB;
      for (let m = 0; m < count; m++) {
        const ma = hd[m * HEADER + HeaderField.bodyA],
          mbi = hd[m * HEADER + HeaderField.bodyB];
        const k = ma === i ? mbi : mbi === i ? ma : -1;
        if (k < 0 || b.motionType[k] !== MotionType.Dynamic || !this.isMoving(k)) continue;
        const sk = b.shape[k];
        if (sk === null || (isTriangleShape(sk) && isTriangleShape(si))) continue;
        this.setEndpointMotion(k, this.motionA);
        this.motionB.setStatic(pb.px, pb.py, pb.pz, pb.qx, pb.qy, pb.qz, pb.qw);
        this.stats.toiChecks++;
        const res = this.sweepResult;
        if (!sweepShapeLinear(sk, this.motionA, si, this.motionB, 0, 1e-3, res)) continue;
        if (!(res.t0 < 1)) continue;
        if (!(res.t0 > 0)) {
          // Touching from the start: only a motion driving it into the moved body is undone.
          const k3 = k * 3;
          const into =
            (b.pos[k3] - b.pos0[k3]) * res.normalX + (b.pos[k3 + 1] - b.pos0[k3 + 1]) * res.normalY + (b.pos[k3 + 2] - b.pos0[k3 + 2]) * res.normalZ;
          if (into <= 1e-4) continue;
        }
        this.moveToFraction(k, Math.max(0, res.t0));
        this.stats.toiEvents++;
        q.push(k);
      }
    }
    q.clear();
  }

  private addToi(t: number, i: number, j: number): void {
    const n = this.toiCount;
    if (n === this.toiTime.length) {
      const m = n * 2;
      const t2 = new Float64Array(m);
      t2.set(this.toiTime);
      this.toiTime = t2;
      const b2 = new Int32Array(m);
      b2.set(this.toiBody);
      this.toiBody = b2;
      const o2 = new Int32Array(m);
      o2.set(this.toiOther);
      this.toiOther = o2;
      this.toiOrder = new Int32Array(m);
    }
    this.toiTime[n] = t;
    this.toiBody[n] = i;
    this.toiOther[n] = j;
    this.toiCount = n + 1;
  }

  /** Moves body i back along its swept transform to the fraction t of the step (velocity kept). */
  private moveToFraction(i: number, t: number): void {
    const b = this.bodies;
    const i3 = i * 3,
      i4 = i * 4;
    for (let k = 0; k < 3; k++) b.pos[i3 + k] = b.pos0[i3 + k] + (b.pos[i3 + k] - b.pos0[i3 + k]) * t;
    // nlerp along the shortest arc, as the swept transform does.
    let d = 0;
    for (let k = 0; k < 4; k++) d += b.rot0[i4 + k] * b.rot[i4 + k];
    const sgn = d < 0 ? -1 : 1;
    let l = 0;
    for (let k = 0; k < 4; k++) {
      const q = b.rot0[i4 + k] + (sgn * b.rot[i4 + k] - b.rot0[i4 + k]) * t;
      b.rot[i4 + k] = q;
      l += q * q;
    }
    l = 1 / Math.sqrt(l);
    for (let k = 0; k < 4; k++) b.rot[i4 + k] *= l;
    updateWorldInertia(b, i);
  }

  /**
   * A manifold between children of bodies with per-child surfaces (setChildSurfaces): null when the
   * children's filters keep them apart or a child is a trigger (its overlap becomes a trigger event of the
   * pair), else the pair material, combined from the children's materials when either has its own.
   */
  private childManifoldMaterial(ia: number, ib: number, man: ContactManifold, mat: PairMaterial): PairMaterial | null {
    const b = this.bodies;
    const sa = b.flags[ia] & BodyFlag.ChildSurfaces ? this.childSurfaces.get(b.handle[ia]) : undefined,
      sb = b.flags[ib] & BodyFlag.ChildSurfaces ? this.childSurfaces.get(b.handle[ib]) : undefined;
    const ra = sa ? sa.runOf(man.childA) : -1,
      rb = sb ? sb.runOf(man.childB) : -1;
    // A side without surfaces of its own filters as its body.
    const memA = sa ? sa.membership[ra] : b.membership[ia],
      colA = sa ? sa.collideWith[ra] : b.collideWith[ia],
      memB = sb ? sb.membership[rb] : b.membership[ib],
      colB = sb ? sb.collideWith[rb] : b.collideWith[ib];
    if ((memA & colB) === 0 || (memB & colA) === 0) return null;
    if ((sa && sa.trigger[ra]) || (sb && sb.trigger[rb])) {
      for (let c = 0; c < man.count; c++) {
        if (man.depth[c] >= 0) {
          this.triggerCur.insert(b.handle[ia], b.handle[ib]);
          break;
        }
      }
      return null;
    }
    const ma = sa ? sa.materials[ra] : null,
      mb = sb ? sb.materials[rb] : null;
    if (ma === null && mb === null) return mat;
    return this.combineMaterial(ia, ib, ma ?? b.material[ia], mb ?? b.material[ib], this.childPairMaterial);
  }

  /** Combines two surfaces into the pair material `m` (Babylon/Havok combine modes; the larger mode wins). */
  private combineMaterial(ia: number, ib: number, A: SurfaceMaterial, B: SurfaceMaterial, m: PairMaterial): PairMaterial {
    const fm = A.frictionCombine > B.frictionCombine ? A.frictionCombine : B.frictionCombine;
    const rm = A.restitutionCombine > B.restitutionCombine ? A.restitutionCombine : B.restitutionCombine;
    // Combined in a loop over a scratch array: no calls with double arguments per pair.
    const c = this.combineScratch;
    c[0] = A.friction;
    c[1] = B.friction;
    c[2] = A.staticFriction;
    c[3] = B.staticFriction;
    c[4] = A.restitution;
    c[5] = B.restitution;
    for (let k = 0; k < 6; k += 2) {
      const x = c[k],
        y = c[k + 1];
      const mode = k === 4 ? rm : fm;
      c[6 + k / 2] =
        mode === CombineMode.GeometricMean
          ? Math.sqrt(x * y)
          : mode === CombineMode.Maximum
            ? (x > y ? x : y)
            : mode === CombineMode.ArithmeticMean
              ? (x + y) * 0.5
              : mode === CombineMode.Multiply
                ? x * y
                : x < y
                  ? x
                  : y;
    }
    m.friction = c[6];
    m.staticFriction = c[7];
    m.restitution = c[8];
    m.restitutionThreshold = this.restitutionThreshold;
    m.spring.frequency = this.contactSpring.frequency;
    m.spring.dampingRatio = this.contactSpring.dampingRatio;
    m.maximumRecoveryVelocity = this.maximumRecoveryVelocity;
    if (this.pairMaterialCallback) this.pairMaterialCallback(this.bodies.handle[ia], this.bodies.handle[ib], m);
    return m;
  }

  /** 7. The substepped soft solve (Box2D v3 soft step): integrate, warm start, solve, integrate, relax; restitution. */
  private solve(dt: number): void {
    const b = this.bodies;
    const n = this.substeps;
    const h = dt / n;
    const solver = this.solver;
    const joints = this.joints;
    const hasJoints = joints.count > 0;
    // Joints before contacts in every pass (Box2D v3's order): contacts see the joints' corrections.
    if (hasJoints) joints.prepare(b, dt, h);
    // Up is against gravity (shock propagation, src/dynamics/shockPropagation.ts); no gravity, no up.
    const gl = Math.sqrt(this.gx * this.gx + this.gy * this.gy + this.gz * this.gz);
    const gi = gl > 0 ? -1 / gl : 0;
    solver.prepare(b, h, this.gx * gi, this.gy * gi, this.gz * gi);
    for (let s = 0; s < n; s++) {
      integrateVelocities(b, this.active, h, this.gx, this.gy, this.gz, this.maxLinearSpeed, this.maxAngularSpeed);
      if (hasJoints) joints.warmStart(b);
      solver.warmStart(b);
      if (hasJoints) joints.solve(b, h, true);
      solver.solve(b, h);
      integratePositions(b, this.active, h);
      if (hasJoints) joints.solve(b, h, false);
      solver.relax(b, h);
    }
    // Each contact's end-of-step separation (events, islands) is the last relax pass's, at the final poses.
    solver.applyRestitution(b);
    // Forces act for one step.
    const ids = this.active.data;
    for (let k = 0; k < this.active.count; k++) {
      const i = ids[k];
      // Element writes: TypedArray.fill with a range is a builtin call that allocated here every step.
      const f = b.force,
        tq = b.torque;
      f[i * 3] = f[i * 3 + 1] = f[i * 3 + 2] = 0;
      tq[i * 3] = tq[i * 3 + 1] = tq[i * 3 + 2] = 0;
      updateWorldInertia(b, i);
    }
  }

  /** 6 + 9. Islands and sleep, bounds for the next queries, and events. */
  private finishStep(dt: number): void {
    this.updateSleep(dt);
    this.buildEvents();
    const b = this.bodies;
    let awake = 0;
    for (let i = 0; i < b.count; i++) {
      if (b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0) awake++;
    }
    this.stats.bodies = b.count;
    this.stats.awakeBodies = awake;
  }

  private updateSleep(dt: number): void {
    const b = this.bodies;
    const ids = this.active.data;
    const n = this.active.count;
    const thr = this.sleepThreshold;
    // Per-body rest timers (Box2D: speed at the body's farthest point below the threshold).
    for (let k = 0; k < n; k++) {
      const i = ids[k];
      const i3 = i * 3;
      const v2 = b.vel[i3] * b.vel[i3] + b.vel[i3 + 1] * b.vel[i3 + 1] + b.vel[i3 + 2] * b.vel[i3 + 2];
      const w2 = b.angVel[i3] * b.angVel[i3] + b.angVel[i3 + 1] * b.angVel[i3 + 1] + b.angVel[i3 + 2] * b.angVel[i3 + 2];
      const r = b.radius[i];
      const speed2 = Math.max(v2, w2 * r * r);
      if (!this.sleepingEnabled || (b.flags[i] & BodyFlag.SleepingAllowed) === 0 || speed2 > thr * thr) b.sleepTime[i] = 0;
      else b.sleepTime[i] += dt;
    }
    if (!this.sleepingEnabled) return;
    // Islands over this step's contacts between moving bodies (active-list positions as ids).
    const uf = this.unionFind;
    uf.reset(n);
    const pos = this.denseToActive(n);
    const hd = this.solver.header;
    for (let m = 0; m < this.solver.count; m++) {
      const a = hd[m * HEADER + HeaderField.bodyA],
        c = hd[m * HEADER + HeaderField.bodyB];
      const pa = pos[a],
        pc = pos[c];
      if (pa < 0 || pc < 0) continue;
      const dynA = b.motionType[a] === MotionType.Dynamic,
        dynC = b.motionType[c] === MotionType.Dynamic;
      // Touching manifolds only: a body rolling past within the speculative margin must not keep a resting
      // pile awake.
      if (dynA && dynC && this.solver.isTouching(m)) uf.union(pa, pc);
    }
    // Jointed bodies share an island (they sleep and wake together).
    const ja = this.joints.activeA,
      jb = this.joints.activeB;
    for (let k = 0; k < this.joints.activeCount; k++) {
      const a = ja[k],
        c = jb[k];
      if (a < 0 || c < 0) continue;
      const pa = pos[a],
        pc = pos[c];
      if (pa >= 0 && pc >= 0 && b.motionType[a] === MotionType.Dynamic && b.motionType[c] === MotionType.Dynamic) uf.union(pa, pc);
    }
    if (this.islandMin.length < n) this.islandMin = new Float64Array(Math.max(n, this.islandMin.length * 2));
    const minT = this.islandMin;
    minT.fill(Infinity, 0, n);
    for (let k = 0; k < n; k++) {
      const r = uf.find(k);
      const t = b.sleepTime[ids[k]];
      if (t < minT[r]) minT[r] = t;
    }
    // A moving kinematic body keeps what it touches awake.
    for (let m = 0; m < this.solver.count; m++) {
      const a = hd[m * HEADER + HeaderField.bodyA],
        c = hd[m * HEADER + HeaderField.bodyB];
      const pa = pos[a],
        pc = pos[c];
      if (pa < 0 || pc < 0) continue;
      if (b.motionType[a] === MotionType.Kinematic) {
        const r = uf.find(pc);
        if (b.sleepTime[a] < minT[r]) minT[r] = b.sleepTime[a];
      } else if (b.motionType[c] === MotionType.Kinematic) {
        const r = uf.find(pa);
        if (b.sleepTime[c] < minT[r]) minT[r] = b.sleepTime[c];
      }
    }
    this.sleepRestedIslands(n);
  }

  /**
   * Islands (union-find roots over the active list) that have rested long enough sleep together. Apart from
   * updateSleep, whose loops over velocities would otherwise be deoptimised (and box every double) when the
   * first island of a run falls asleep.
   */
  private sleepRestedIslands(n: number): void {
    const uf = this.unionFind;
    const minT = this.islandMin;
    const ids = this.active.data;
    const list = this.sleepScratch;
    for (let k = 0; k < n; k++) {
      if (uf.find(k) !== k || minT[k] < this.timeToSleep) continue;
      list.clear();
      for (let j = k; j < n; j++) if (uf.find(j) === k) list.push(ids[j]);
      this.sleepBodies(list.data, list.count);
    }
  }

  private readonly sleepScratch = new IntList(64);
  private activePos = new Int32Array(64);

  /** dense index -> position in the active list (-1 when not active). */
  private denseToActive(n: number): Int32Array {
    const b = this.bodies;
    if (this.activePos.length < b.count) this.activePos = new Int32Array(Math.max(b.count, this.activePos.length * 2));
    const p = this.activePos;
    p.fill(-1, 0, b.count);
    const ids = this.active.data;
    for (let k = 0; k < n; k++) p[ids[k]] = k;
    return p;
  }

  /** Puts the given bodies to sleep as one island: zero velocity, proxies into the static tree. */
  private sleepBodies(ids: ArrayLike<number>, n: number): void {
    const b = this.bodies;
    const handles = this.islandListPool.length > 0 ? this.islandListPool.pop()! : [];
    handles.length = 0;
    for (let k = 0; k < n; k++) handles.push(b.handle[ids[k]]);
    const island = this.newIsland(handles);
    for (let k = 0; k < n; k++) {
      const i = ids[k];
      b.flags[i] |= BodyFlag.Sleeping;
      b.island[i] = island;
      b.vel.fill(0, i * 3, i * 3 + 3);
      b.angVel.fill(0, i * 3, i * 3 + 3);
      b.sleepTime[i] = 0;
      this.removeProxy(i);
      this.updateProxy(i);
    }
  }

  private newIsland(handles: number[]): number {
    const id = this.freeIslandIds.length > 0 ? this.freeIslandIds.pop()! : this.sleepingIslands.length;
    this.sleepingIslands[id] = handles;
    return id;
  }

  private releaseIsland(id: number): void {
    const list = this.sleepingIslands[id];
    if (list) this.islandListPool.push(list);
    this.sleepingIslands[id] = null;
    this.freeIslandIds.push(id);
  }

  /** Wakes the body at dense index i and every body of its sleeping island. */
  private wakeIndex(i: number): void {
    const b = this.bodies;
    if (b.motionType[i] === MotionType.Static) return;
    b.sleepTime[i] = 0;
    if ((b.flags[i] & BodyFlag.Sleeping) === 0) return;
    const isl = b.island[i];
    const members = isl >= 0 ? this.sleepingIslands[isl] : null;
    if (members) {
      // Indexed loop (no iterator object); the list returns to the pool once its members are awake.
      for (let k = 0; k < members.length; k++) {
        const j = b.indexOf(members[k]);
        if (j >= 0) this.wakeOne(j);
      }
    }
    if (isl >= 0) this.releaseIsland(isl);
    if (b.flags[i] & BodyFlag.Sleeping) this.wakeOne(i);
  }

  private wakeOne(j: number): void {
    const b = this.bodies;
    b.flags[j] &= ~BodyFlag.Sleeping;
    b.island[j] = -1;
    b.sleepTime[j] = 0;
    this.removeProxy(j);
    this.updateProxy(j);
  }

  /**
   * Ended contact events: pairs that touched last step and not now, unless both sides are at rest (sleep keeps
   * them silent). A method of its own, apart from buildEvents' loop over the contacts: the first pair of
   * resting bodies to part takes a branch for the first time, and the deoptimisation that follows should not
   * send the contact loop (doubles, which unoptimised code boxes) back to the interpreter.
   */
  private reportEndedContacts(cur: PairTable, prev: PairTable): void {
    const b = this.bodies;
    const ev = this.contactEvents;
    for (let e = 0; e < prev.count; e++) {
      const ha = prev.keyA[e],
        hb = prev.keyB[e];
      if (cur.find(ha, hb) >= 0) continue;
      const ia = b.indexOf(ha),
        ib = b.indexOf(hb);
      if (ia < 0 || ib < 0) continue; // removed bodies report nothing
      if (this.isResting(ia) && this.isResting(ib)) {
        const k = cur.insert(ha, hb);
        for (let q = 0; q < 6; q++) cur.payload[k * 6 + q] = prev.payload[e * 6 + q];
        continue;
      }
      const pl = prev.payload;
      ev.add(ha, hb, ContactEventType.Ended, pl, e * 6);
    }
  }

  /** Contact events per body pair: began / persisted / ended (one per pair per step). */
  private buildEvents(): void {
    const b = this.bodies;
    const t = this.touchingPrev;
    this.touchingPrev = this.touchingCur;
    this.touchingCur = t;
    const cur = this.touchingCur,
      prev = this.touchingPrev;
    cur.clear();
    const ev = this.contactEvents;
    const hd = this.solver.header,
      cs = this.solver.contacts;
    const count = this.solver.count;
    let deepest = 0;
    let m = 0;
    while (m < count) {
      const ha = hd[m * HEADER + HeaderField.handleA],
        hb = hd[m * HEADER + HeaderField.handleB];
      // Manifolds of one body pair are consecutive (the narrow phase adds them together).
      let end = m + 1;
      while (end < count && hd[end * HEADER + HeaderField.handleA] === ha && hd[end * HEADER + HeaderField.handleB] === hb) end++;
      let total = 0,
        minSep = Infinity,
        best = -1,
        bestImpulse = -1;
      for (let j = m; j < end; j++) {
        const n = hd[j * HEADER + HeaderField.count];
        for (let c = 0; c < n; c++) {
          const co = (j * 4 + c) * CONTACT;
          const imp = cs[co + ContactField.totalImpulse];
          total += imp;
          const sep = cs[co + ContactField.separation];
          if (sep < minSep) minSep = sep;
          if (-sep > deepest) deepest = -sep;
          if (imp > bestImpulse || (imp === bestImpulse && best >= 0 && sep < cs[best + ContactField.separation])) {
            bestImpulse = imp;
            best = co;
          }
        }
      }
      // Touching: the solver pushed, or the surfaces are within a small contact tolerance.
      if (best >= 0 && (total > 0 || minSep <= TOUCH_TOLERANCE)) {
        const mi = Math.floor(best / (4 * CONTACT));
        const nx = hd[mi * HEADER + HeaderField.normalX],
          ny = hd[mi * HEADER + HeaderField.normalX + 1],
          nz = hd[mi * HEADER + HeaderField.normalX + 2];
        const px = cs[best + ContactField.pointX],
          py = cs[best + ContactField.pointX + 1],
          pz = cs[best + ContactField.pointX + 2];
        const e = cur.insert(ha, hb);
        const pl = cur.payload;
        pl[e * 6] = px;
        pl[e * 6 + 1] = py;
        pl[e * 6 + 2] = pz;
        pl[e * 6 + 3] = nx;
        pl[e * 6 + 4] = ny;
        pl[e * 6 + 5] = nz;
        const type = prev.find(ha, hb) >= 0 ? ContactEventType.Persisted : ContactEventType.Began;
        const k = ev.add(ha, hb, type, pl, e * 6);
        ev.separation[k] = minSep;
        ev.impulse[k] = total;
      }
      m = end;
    }
    this.stats.maxPenetration = deepest;
    this.reportEndedContacts(cur, prev);
    // Trigger enter / exit.
    const tc = this.triggerCur,
      tp = this.triggerPrev;
    const te = this.triggerEvents;
    for (let e = 0; e < tc.count; e++) {
      if (tp.find(tc.keyA[e], tc.keyB[e]) < 0) te.add(tc.keyA[e], tc.keyB[e], TriggerEventType.Entered);
    }
    for (let e = 0; e < tp.count; e++) {
      const ha = tp.keyA[e],
        hb = tp.keyB[e];
      if (tc.find(ha, hb) >= 0) continue;
      const ia = b.indexOf(ha),
        ib = b.indexOf(hb);
      if (ia < 0 || ib < 0) continue;
      if (this.isResting(ia) && this.isResting(ib)) {
        tc.insert(ha, hb);
        continue;
      }
      te.add(ha, hb, TriggerEventType.Exited);
    }
  }

  /** A sleeping body jointed to a body that moves wakes (with its island) before the step. */
  private wakeJointedSleepers(dt: number): void {
    const b = this.bodies;
    this.joints.prepare(b, dt, dt / this.substeps);
    const ja = this.joints.activeA,
      jb = this.joints.activeB;
    for (let k = 0; k < this.joints.activeCount; k++) {
      const a = ja[k],
        c = jb[k];
      if (a < 0 || c < 0) continue;
      const sa = (b.flags[a] & BodyFlag.Sleeping) !== 0,
        sc = (b.flags[c] & BodyFlag.Sleeping) !== 0;
      if (sa === sc) continue;
      const mover = sa ? c : a;
      if (b.motionType[mover] !== MotionType.Static) this.wakeIndex(sa ? a : c);
    }
  }

  private isResting(i: number): boolean {
    const b = this.bodies;
    return b.motionType[i] === MotionType.Static || (b.flags[i] & BodyFlag.Sleeping) !== 0;
  }

  /**
   * A copy of the whole simulation state (bodies, broad-phase trees, contact cache with its warm-start
   * impulses, islands, joints, event state). `restore` puts it back: the world then continues exactly as it
   * did from the moment of the snapshot, bit for bit. Shapes are shared, not copied (they are immutable).
   */
  snapshot(): WorldSnapshot {
    const list = new ShapeList();
    return new WorldSnapshot(this.encodeState(list, stateWriter).result(), list.shapes);
  }

  /** Restores a snapshot taken from this world (or from a world with the same construction). */
  restore(snapshot: WorldSnapshot): void {
    if (!(snapshot instanceof WorldSnapshot)) throw new TypeError(`restore: snapshot must be a WorldSnapshot, got ${String(snapshot)}`);
    const shapes = snapshot.shapes;
    this.decodeState(new ByteReader(snapshot.bytes), {
      indexOf: () => {
        throw new Error("restore: the shape table is read-only");
      },
      at: (k: number) => {
        const sh = shapes[k];
        if (sh === undefined) throw new RangeError(`restore: shape index ${k} is not in the snapshot's shape table`);
        return sh;
      },
    });
  }

  /**
   * Writes the simulation state to `w` (after what it holds), shapes as indices into `shapes`. The step
   * state only: for callers that keep their own shape table (the Babylon plugin's snapshots).
   */
  encodeState(shapes: ShapeTable, w: ByteWriter = new ByteWriter()): ByteWriter {
    if (this.stepping) throw new Error("snapshot: not allowed while the world is stepping");
    if (w === stateWriter) w.pos = 0;
    stateEncoder.encode(this, SNAPSHOT_SKIP, w, shapes);
    return w;
  }

  /** Reads what {@link encodeState} wrote back into this world. */
  decodeState(r: ByteReader, shapes: ShapeTable): void {
    if (this.stepping) throw new Error("restore: not allowed while the world is stepping");
    stateDecoder.decodeInto(this, r, shapes);
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

  /** @internal The pose of the body at dense index i: its origin (centre of mass minus the rotated local centre of mass). */
  originPose(i: number, out: Pose): Pose {
    // Written out (no calls with double arguments): this runs twice per pair per step.
    const b = this.bodies;
    const o = i * 4,
      i3 = i * 3;
    const qx = b.rot[o],
      qy = b.rot[o + 1],
      qz = b.rot[o + 2],
      qw = b.rot[o + 3];
    const cx = b.localCom[i3],
      cy = b.localCom[i3 + 1],
      cz = b.localCom[i3 + 2];
    const tx = 2 * (qy * cz - qz * cy),
      ty = 2 * (qz * cx - qx * cz),
      tz = 2 * (qx * cy - qy * cx);
    out.px = b.pos[i3] - (cx + qw * tx + (qy * tz - qz * ty));
    out.py = b.pos[i3 + 1] - (cy + qw * ty + (qz * tx - qx * tz));
    out.pz = b.pos[i3 + 2] - (cz + qw * tz + (qx * ty - qy * tx));
    out.qx = qx;
    out.qy = qy;
    out.qz = qz;
    out.qw = qw;
    return out;
  }

  /** Sets the centre of mass so that the origin lands at (x, y, z) with the current orientation. */
  private setOriginPosition(i: number, x: number, y: number, z: number): void {
    const b = this.bodies;
    const o = i * 4;
    rot(b.rot[o], b.rot[o + 1], b.rot[o + 2], b.rot[o + 3], b.localCom[i * 3], b.localCom[i * 3 + 1], b.localCom[i * 3 + 2], tmp3);
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

  private clampSpeed(i: number): void {
    const b = this.bodies;
    const i3 = i * 3;
    const l = Math.sqrt(b.vel[i3] * b.vel[i3] + b.vel[i3 + 1] * b.vel[i3 + 1] + b.vel[i3 + 2] * b.vel[i3 + 2]);
    if (l > this.maxLinearSpeed) {
      const s = this.maxLinearSpeed / l;
      b.vel[i3] *= s;
      b.vel[i3 + 1] *= s;
      b.vel[i3 + 2] *= s;
    }
    const a = Math.sqrt(b.angVel[i3] * b.angVel[i3] + b.angVel[i3 + 1] * b.angVel[i3 + 1] + b.angVel[i3 + 2] * b.angVel[i3 + 2]);
    if (a > this.maxAngularSpeed) {
      const s = this.maxAngularSpeed / a;
      b.angVel[i3] *= s;
      b.angVel[i3 + 1] *= s;
      b.angVel[i3 + 2] *= s;
    }
  }

  /** Effective mass properties of body i: computed from shape and density, then overridden. */
  private resolveMass(i: number): MassProperties {
    const b = this.bodies;
    const md = computeMassData(b.shape[i], b.density[i], this.massScratch);
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
    for (let k = 0; k < 3; k++) {
      inv[k] = dynamic && p.mass > 0 && I[k] > 0 ? 1 / I[k] : 0;
      fwd[k] = dynamic && p.mass > 0 && I[k] > 0 ? I[k] : 0;
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

  /** Puts body i into the right tree (moving when awake and not static, static otherwise) with its current bounds. */
  private updateProxy(i: number): void {
    const b = this.bodies;
    const s = b.shape[i];
    if (s === null) {
      this.removeProxy(i);
      return;
    }
    const want = b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0 ? TREE_MOVING : TREE_STATIC;
    this.originPose(i, this.poseA);
    s.computeAabb(this.poseA, b.aabb, i * 6);
    const o = i * 6;
    const a = b.aabb;
    if (b.tree[i] === want) {
      const tree = want === TREE_MOVING ? this.movingTree : this.staticTree;
      tree.moveProxy(b.proxy[i], a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5]);
      return;
    }
    this.removeProxy(i);
    const tree = want === TREE_MOVING ? this.movingTree : this.staticTree;
    b.proxy[i] = tree.createProxy(a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5], BodySet.slotOf(b.handle[i]));
    b.tree[i] = want;
  }

  private removeProxy(i: number): void {
    const b = this.bodies;
    if (b.tree[i] === TREE_MOVING) this.movingTree.destroyProxy(b.proxy[i]);
    else if (b.tree[i] === TREE_STATIC) this.staticTree.destroyProxy(b.proxy[i]);
    b.tree[i] = TREE_NONE;
    b.proxy[i] = -1;
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

function rot(qx: number, qy: number, qz: number, qw: number, vx: number, vy: number, vz: number, out: Float64Array): void {
  const tx = 2 * (qy * vz - qz * vy),
    ty = 2 * (qz * vx - qx * vz),
    tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
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

/** Meshes and heightfields: shapes made of triangles (their pairs collide without sweeps). */
function isTriangleShape(s: Shape): boolean {
  return s.type === ShapeType.Mesh || s.type === ShapeType.Heightfield;
}

function fmtVec(v: unknown): string {
  if (v === null || v === undefined || typeof v !== "object") return String(v);
  const o = v as Vec3Like;
  return `(${String(o.x)}, ${String(o.y)}, ${String(o.z)})`;
}

function fmtQuat(v: unknown): string {
  if (v === null || v === undefined || typeof v !== "object") return String(v);
  const o = v as QuatLike;
  return `(${String(o.x)}, ${String(o.y)}, ${String(o.z)}, ${String(o.w)})`;
}

function positiveInt(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${String(v)}`);
  return v;
}

function nonNegative(name: string, v: number): void {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a finite number >= 0, got ${String(v)}`);
}

function finite(name: string, v: number): void {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new RangeError(`${name} must be a finite number, got ${String(v)}`);
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
  nonNegative("material.friction", m.friction);
  nonNegative("material.staticFriction", m.staticFriction);
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
  if (o.mass !== undefined) nonNegative("massProperties.mass", o.mass);
  if (o.centerOfMass !== undefined && !isFiniteVec3(o.centerOfMass)) {
    throw new RangeError(`massProperties.centerOfMass must be a finite vector, got ${fmtVec(o.centerOfMass)}`);
  }
  if (o.inertia !== undefined) {
    if (!isFiniteVec3(o.inertia) || o.inertia.x < 0 || o.inertia.y < 0 || o.inertia.z < 0) {
      throw new RangeError(`massProperties.inertia must be a finite vector >= 0, got ${fmtVec(o.inertia)}`);
    }
  }
  if (o.inertiaOrientation !== undefined && !isValidQuat(o.inertiaOrientation)) {
    throw new RangeError(`massProperties.inertiaOrientation must be a finite non-zero quaternion, got ${fmtQuat(o.inertiaOrientation)}`);
  }
}
