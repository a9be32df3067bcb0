/**
 * The step's shared data: what the public API of `World` (world.ts) edits and every stage of the step reads and
 * writes (bodies, the broad-phase trees, the contact solver, the contact and trigger pair tables, islands,
 * the contact and trigger pair tables of the last step, islands), the step's workspace beside it
 * (stepScratch.ts), and the small helpers several of them use (body filters, origin poses, tree proxies,
 * sleeping islands). The stages in ./stages/ are functions of a
 * WorldState and import this module, never world.ts; `World` extends it with the public API and a `step()`
 * that calls the stages in order (bepu's Simulation owning its BroadPhase, NarrowPhase, Solver and Sleeper).
 *
 * Its fields are internal: users read the documented ones through `World`. Snapshots walk them generically
 * (src/world/stateCodec.ts): every field here is state and is saved; the step's scratch lives in `scratch`
 * (stepScratch.ts), which snapshots never walk.
 */
import { DynamicTree } from "../broadphase/dynamicTree";
import { PairTable } from "../collections/pairTable";
import { SeparatingAxisCache } from "../collision/separatingAxisCache";
import { Pose } from "../math/pose";
import { Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import { BodyFlag, BodySet, SlotCount } from "../dynamics/bodySet";
import { ContactCache } from "../dynamics/contacts/contactCache";
import { ContactConstraints } from "../dynamics/contacts/contactConstraints";
import { JointSolver } from "../dynamics/joints/jointSolver";
import { MotionType, type PairMaterial, type SpringSettings } from "./descriptions";
import type { ChildSurfaces } from "./childSurfaces";
import { ContactEventBuffer, TriggerEventBuffer } from "./events";
import { StepScratch } from "./stepScratch";

/** The world's settings once validated and defaulted (World's constructor resolves them). */
export type ResolvedSettings = Pick<
  WorldState,
  | "gx"
  | "gy"
  | "gz"
  | "substeps"
  | "contactSubsteps"
  | "contactSpring"
  | "maximumRecoveryVelocity"
  | "restitutionThreshold"
  | "sleepingEnabled"
  | "sleepThreshold"
  | "timeToSleep"
  | "maxLinearSpeed"
  | "maxAngularSpeed"
>;

/** Counters of the last step, for overlays and tests. */
export class StepStats {
  bodies = 0;
  awakeBodies = 0;
  pairs = 0;
  manifolds = 0;
  contacts = 0;
  speculativeContacts = 0;
  /** Manifolds the contact cache kept from the previous step: their pairs barely moved and skipped the narrow phase. */
  reusedManifolds = 0;
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

/** Which broad-phase tree holds a body's proxy (BodySet.tree). */
export const TREE_NONE = 0,
  TREE_MOVING = 1,
  TREE_STATIC = 2;

/** The step's shared data and helpers (see the file comment). */
export class WorldState {
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
  /**
   * The joints (6-DOF constraints with per-axis limits, motors, friction and springs). Create them with
   * {@link World.createJoint}; configure them through this solver's per-axis methods.
   */
  readonly joints: JointSolver;
  /** Substeps of a step of a world that has joints. */
  substeps: number;
  /** Substeps of a step of a world without joints. */
  contactSubsteps: number;
  contactSpring: SpringSettings;
  maximumRecoveryVelocity: number;
  restitutionThreshold: number;
  sleepingEnabled: boolean;
  sleepThreshold: number;
  timeToSleep: number;
  maxLinearSpeed: number;
  maxAngularSpeed: number;
  gx: number;
  gy: number;
  gz: number;
  /** @internal Broad-phase tree of awake moving bodies (user data = body slot). For queries. */
  readonly movingTree = new DynamicTree();
  /** @internal Broad-phase tree of static and sleeping bodies (user data = body slot). For queries. */
  readonly staticTree = new DynamicTree();
  /** The persistent manifolds (state: snapshots save them). */
  readonly contactCache = new ContactCache();
  /** The contact constraints solved over them each step. */
  readonly solver = new ContactConstraints(this.contactCache);
  /** Separating axes of convex pairs that were near but apart last step (state: snapshots save it). */
  readonly separations = new SeparatingAxisCache();
  /** Sleeping islands: lists of handles, by island id. */
  sleepingIslands: (number[] | null)[] = [];
  freeIslandIds: number[] = [];
  touchingPrev = new PairTable(6);
  touchingCur = new PairTable(6);
  /**
   * Touching pairs whose two bodies are at rest (sleeping or static), with their last contact point and normal:
   * kept apart from the per-step tables so that a sleeping pile costs the events stage nothing per step
   * (events.ts). The spare is the table the re-examination writes into.
   */
  touchingResting = new PairTable(6);
  touchingRestingSpare = new PairTable(6);
  /** Bumped when a body may have stopped resting (woken, made non-static): touchingResting is re-examined. */
  restingEpoch = 0;
  /** The restingEpoch touchingResting was last examined at. */
  restingEpochSeen = 0;
  triggerPrev = new PairTable(0);
  triggerCur = new PairTable(0);
  readonly disabledPairs = new PairTable(0);
  /** The step's workspace and the world's wiring (never in snapshots). */
  readonly scratch: StepScratch;

  /**
   * Optional hook to edit a pair's material after it is combined from the two surfaces (bepu's
   * ConfigureContactManifold). Called once per body pair per step; must not allocate for speed.
   */
  get pairMaterialCallback(): ((a: number, b: number, material: PairMaterial) => void) | null {
    return this.scratch.pairMaterialCallback;
  }
  set pairMaterialCallback(f: ((a: number, b: number, material: PairMaterial) => void) | null) {
    this.scratch.pairMaterialCallback = f;
  }

  constructor(settings: ResolvedSettings) {
    this.gx = settings.gx;
    this.gy = settings.gy;
    this.gz = settings.gz;
    this.substeps = settings.substeps;
    this.contactSubsteps = settings.contactSubsteps;
    this.contactSpring = settings.contactSpring;
    this.maximumRecoveryVelocity = settings.maximumRecoveryVelocity;
    this.restitutionThreshold = settings.restitutionThreshold;
    this.sleepingEnabled = settings.sleepingEnabled;
    this.sleepThreshold = settings.sleepThreshold;
    this.timeToSleep = settings.timeToSleep;
    this.maxLinearSpeed = settings.maxLinearSpeed;
    this.maxAngularSpeed = settings.maxAngularSpeed;
    this.scratch = new StepScratch(this, settings.restitutionThreshold, settings.contactSpring, settings.maximumRecoveryVelocity);
    // One bound function for the solver's wake requests (created once, not per call).
    this.joints = new JointSolver(this.bodies, (handle: number) => {
      const i = this.bodies.indexOf(handle);
      if (i >= 0) this.wakeIndex(i);
    });
  }

  /** The per-child surfaces of the body at dense index i, or null. */
  childSurfacesOf(i: number): ChildSurfaces | null {
    return this.bodies.flags[i] & BodyFlag.ChildSurfaces ? this.scratch.childSurfaceSlots[this.bodies.handle[i] % SlotCount] : null;
  }

  shouldCollide(i: number, j: number): boolean {
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

  /** True for awake non-static bodies (the ones that move this step). */
  isMoving(i: number): boolean {
    const b = this.bodies;
    return b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0;
  }

  isResting(i: number): boolean {
    const b = this.bodies;
    return b.motionType[i] === MotionType.Static || (b.flags[i] & BodyFlag.Sleeping) !== 0;
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

  /** Puts body i into the right tree (moving when awake and not static, static otherwise) with its current bounds. */
  updateProxy(i: number): void {
    const b = this.bodies;
    const s = b.shape[i];
    if (s === null) {
      this.removeProxy(i);
      return;
    }
    const want = b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0 ? TREE_MOVING : TREE_STATIC;
    this.originPose(i, this.scratch.poseA);
    s.computeAabb(this.scratch.poseA, b.aabb, i * 6);
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

  removeProxy(i: number): void {
    const b = this.bodies;
    if (b.tree[i] === TREE_MOVING) this.movingTree.destroyProxy(b.proxy[i]);
    else if (b.tree[i] === TREE_STATIC) this.staticTree.destroyProxy(b.proxy[i]);
    b.tree[i] = TREE_NONE;
    b.proxy[i] = -1;
  }

  /** Puts the given bodies to sleep as one island: zero velocity, proxies into the static tree. */
  sleepBodies(ids: ArrayLike<number>, n: number): void {
    const b = this.bodies;
    const handles = this.scratch.islandListPool.length > 0 ? this.scratch.islandListPool.pop()! : [];
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

  newIsland(handles: number[]): number {
    const id = this.freeIslandIds.length > 0 ? this.freeIslandIds.pop()! : this.sleepingIslands.length;
    this.sleepingIslands[id] = handles;
    return id;
  }

  releaseIsland(id: number): void {
    const list = this.sleepingIslands[id];
    if (list) this.scratch.islandListPool.push(list);
    this.sleepingIslands[id] = null;
    this.freeIslandIds.push(id);
  }

  /** Wakes the body at dense index i and every body of its sleeping island. */
  wakeIndex(i: number): void {
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

  wakeOne(j: number): void {
    const b = this.bodies;
    b.flags[j] &= ~BodyFlag.Sleeping;
    this.restingEpoch++;
    b.island[j] = -1;
    b.sleepTime[j] = 0;
    this.removeProxy(j);
    this.updateProxy(j);
  }
}

/** Meshes and heightfields: shapes made of triangles (their pairs collide without sweeps). */
export function isTriangleShape(s: Shape): boolean {
  return s.type === ShapeType.Mesh || s.type === ShapeType.Heightfield;
}
